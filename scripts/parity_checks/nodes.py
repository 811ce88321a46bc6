"""The nodes whose exported files a case checks, in the order they run. A node kind is one
module here with `check_exports(x: Exports)`; add it to NODES."""

from __future__ import annotations

from . import ant, antd, bee, desktop, kubo, radicle


NODES = (bee, kubo, ant, radicle, antd, desktop)
