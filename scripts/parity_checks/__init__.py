"""The parity check of scripts/parity.py, one module per node (as Sources/FreedomNodes has
one folder per node) beside what they share: common, cases, exports, derivation (each
case run), experimental (desktop's experimental keys) and nodes (the list of nodes)."""
