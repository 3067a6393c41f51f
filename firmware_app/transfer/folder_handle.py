"""A folder the box does not own (a USB stick, a folder named on the command line), read and
written through handles.

A name looked up again at every use is a name someone else can change in between: a
stick whose ``tableside`` is a link to ``/etc``, or a folder swapped for one while a file
is written, would take the box's writes wherever the link points. So a folder is opened
once, as a descriptor, and every name below it is looked up in that folder alone
(``openat``): a link is never followed, a file, pipe or device where a folder belongs is
refused, and a folder swapped after it was opened keeps the writes meant for it, off the
stick's tree, never anywhere else. Files are written whole or not at all (a temporary
file synced, renamed in the same folder, the folder synced) and read only when they are
plain files within a size the caller names, checked on the open descriptor, so what is
read is what was checked; a named pipe is never waited on.
"""

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
NEW_NAMES = 100  # names tried for a new folder before giving up (``name``, ``name-2`` …)


class NotAFolder(OSError):
    """A link, a file, a pipe or a device stands where a folder belongs."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} is not a folder (a link, a file or a device): refused")
        self.path = Path(path)


class NotAFile(OSError):
    """A link, a folder, a pipe or a device stands where a plain file is read."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} is not a plain file (a link, a folder or a device): refused")
        self.path = Path(path)


class TooLarge(OSError):
    """A file larger than what the box ever writes under its name: never read into memory."""

    def __init__(self, path: Path, limit: int) -> None:
        super().__init__(f"{path} is larger than {limit} bytes: refused")
        self.path = Path(path)


class Folder:
    """An open folder; ``path`` names it in messages only, it is never looked up again."""

    def __init__(self, handle: int, path: Path) -> None:
        self.handle, self.path = handle, Path(path)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> "Folder":
        """The folder at ``path``, a name the caller trusts (a mount point only root can
        change, a folder the user named): links in it are followed as the user meant them."""
        path = Path(path)
        try:
            return cls(os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC), path)
        except NotADirectoryError:
            raise NotAFolder(path) from None

    @classmethod
    def below(cls, root: Path, names: Iterable[str], *, create: bool = False) -> "Folder":
        """The folder reached from ``root`` (trusted, as for :meth:`open`) through ``names``,
        one folder at a time, never through a link; each made first when ``create``."""
        folder = cls.open(root)
        for name in names:
            with folder:
                folder = folder.child(name, create=create)
        return folder

    def child(self, name: str, *, create: bool = False) -> "Folder":
        """The folder ``name`` in this one (made first when ``create``): never a link."""
        _one_name(name)
        if create:
            try:
                os.mkdir(name, 0o755, dir_fd=self.handle)
            except FileExistsError:
                pass  # a folder or not: the open below tells
            else:
                self.sync()
        try:
            handle = os.open(name, _FOLDER, dir_fd=self.handle)
        except OSError as error:
            if error.errno in (errno.ENOTDIR, errno.ELOOP):
                raise NotAFolder(self.path / name) from None
            raise
        return Folder(handle, self.path / name)

    def new_child(self, name: str) -> str:
        """Make a new folder ``name`` here, or ``name-2``, ``name-3`` … when that is taken
        (by anything: a link there is never reused); return the name made."""
        for number in range(1, NEW_NAMES + 1):
            made = name if number == 1 else f"{name}-{number}"
            _one_name(made)
            try:
                os.mkdir(made, 0o755, dir_fd=self.handle)
            except FileExistsError:
                continue
            self.sync()
            return made
        raise FileExistsError(errno.EEXIST, f"{NEW_NAMES} names taken", str(self.path / name))

    def names(self, limit: int) -> tuple[list[str], bool]:
        """At most ``limit`` names of this folder, as the file system lists them, and whether
        there are more. Nothing is looked at but the names: a folder of 100,000 entries
        costs what ``limit`` of them cost."""
        found: list[str] = []
        with os.scandir(self.handle) as entries:  # a copy of the handle, rewound
            for entry in entries:
                if len(found) == limit:
                    return found, True
                found.append(entry.name)
        return found, False

    def is_file(self, name: str) -> bool:
        """Whether ``name`` here is a plain file (a link to one is not)."""
        _one_name(name)
        try:
            mode = os.stat(name, dir_fd=self.handle, follow_symlinks=False).st_mode
        except FileNotFoundError:
            return False
        return stat.S_ISREG(mode)

    def read(self, name: str, limit: int) -> bytes:
        """The bytes of the plain file ``name`` here, at most ``limit`` of them."""
        _one_name(name)
        path = self.path / name
        try:
            handle = os.open(name, _READ, dir_fd=self.handle)
        except OSError as error:
            if error.errno == errno.ELOOP:  # the name is a link
                raise NotAFile(path) from None
            raise
        with os.fdopen(handle, "rb") as file:
            found = os.fstat(handle)
            if not stat.S_ISREG(found.st_mode):
                raise NotAFile(path)
            if found.st_size > limit:
                raise TooLarge(path, limit)
            data = file.read(limit + 1)
        if len(data) > limit:  # grown since the check
            raise TooLarge(path, limit)
        return data

    def write(self, name: str, data: bytes) -> None:
        """``name`` here holds ``data``, whole, or what it held before: a temporary file
        written and synced, renamed over ``name`` (a link there is replaced, never
        followed), then this folder synced."""
        _one_name(name)
        temporary = f".{name}.{secrets.token_hex(4)}.tmp"
        handle = os.open(temporary, _WRITE, 0o644, dir_fd=self.handle)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.rename(temporary, name, src_dir_fd=self.handle, dst_dir_fd=self.handle)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=self.handle)
            raise
        self.sync()

    def sync(self) -> None:
        """fsync this folder, so that the names made or renamed in it are stored."""
        os.fsync(self.handle)

    def close(self) -> None:
        os.close(self.handle)

    def __enter__(self) -> "Folder":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@contextlib.contextmanager
def opened(where: "Folder | str | os.PathLike[str]", *, create: bool = False) -> Iterator[Folder]:
    """``where`` itself when it is an open :class:`Folder` (its owner closes it); else the
    folder at that path, a path the caller trusts, made first (with its parents) when
    ``create``, and closed after."""
    if isinstance(where, Folder):
        yield where
        return
    if create:
        Path(where).mkdir(parents=True, exist_ok=True)
    with Folder.open(where) as folder:
        yield folder


def _one_name(name: str) -> None:
    """A name in a folder, never a path that leaves it (the box's own names and those it
    matched; anything else is a mistake in the box)."""
    if not name or "/" in name or "\0" in name or name in (".", ".."):
        raise ValueError(f"not a name in a folder: {name!r}")
