from typing import TypeVar

T = TypeVar("T")

def untracked(obj: T) -> T: ...
