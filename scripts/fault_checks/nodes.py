"""The node kinds, in the order their scenarios run. A node kind is one module here with a
`Node` subclass (common.py says what it provides); add it to NODES."""

from .ant import Ant
from .antd import Antd
from .bee import Bee
from .desktop import Freedom
from .kubo import Kubo
from .radicle import Radicle


NODES = (Bee, Kubo, Radicle, Ant, Antd, Freedom)
