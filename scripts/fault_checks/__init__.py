"""The fault scenarios of scripts/faults.py, one module per node kind (as Sources/FreedomNodes
has one folder per node) beside the scenarios they all go through: common, scenarios, nodes
(the list of node kinds)."""
