"""A release-shaped install, as a user who installs a built package gets it: the sdist and the wheel
built from this tree, the wheel installed (not editable, no ``[llm]`` extra) into a clean virtual
environment, then every rule system played from an empty folder with what it ships: its adventure
(Beyond Code: its example deck), ``ask --why``, ``export md``, and a model prompt rendered by a stand-in
model. Nothing here may come from the checkout: the installed package is the only ``solo`` on the path.

About 35 s on two cores, most of it pip installing the dependencies (from its cache when warm)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

import solo

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("build") is None:  # in the test extra: `make test` installs it, and CI must run this
    message = "the test extra's `build` builds the sdist and the wheel: pip install -e '.[test]'"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=True)

# Each system's session from what it ships; the last line's `export md` is checked apart.
SESSIONS = {
    "enigma": ["campaign new Museum --from first_adventure.toml --seed 3", "pc pregen Felix", "scene start",
               "ask Is the door locked? --why"],
    "rhun": ["campaign new Salt --from rhun_salt_and_ash --seed 3", "pc pregen Halden", "scene start",
             "ask Is the quay empty? --why"],
    "haasteet": ["campaign new Bell --from haasteet_the_drowned_bell --seed 5", "pc pregen Ruth", "scene start",
                 "ask Is the bell ringing? --why"],
    "alpha": ["campaign new Toll --from alpha_the_salt_road_toll --seed 2", "pc pregen Ottilie", "scene start",
              "ask Are the wardens awake? --why"],
    # Beyond Code ships no adventure (its cards are the player's own words): it plays its example deck
    "beyond-code": ["campaign new Run --rules beyond-code --deck example --seed 2", "choose 5",
                    "ask Is the clock ticking? --why"],
}

# Run inside the installed environment: a stand-in model (FakeBackend) records every prompt rendered.
DRIVER = """
import json, sys
from pathlib import Path

import solo
from solo.store.journal import Journal
from solo.llm.backends import FakeBackend
from solo.llm.graph import ModelNarrator
from solo.table.session import Session

out = {"solo": solo.__file__}
for name, lines in json.loads(sys.argv[1]).items():
    backend = FakeBackend()
    session = Session(Journal(Path(name + ".sqlite")), model=ModelNarrator(backend))
    results = [session.execute(line) for line in lines]
    out[name] = {"errors": [r.error for r in results if not r.ok], "prompts": backend.prompts}
print(json.dumps(out))
"""


class Installed:
    def __init__(self, dist: Path, venv_dir: Path, home: Path):
        self.dist, self.venv, self.home = dist, venv_dir, home
        self.wheel = next(dist.glob("solo-*.whl"))
        self.sdist = next(dist.glob("solo-*.tar.gz"))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("SOLO_", "PYTHON", "VIRTUAL_ENV"))}
        self.env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "cache"),
                        PATH=os.pathsep.join([str(venv_dir / "bin"), self.env.get("PATH", "")]))

    def run(self, *args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(args), input=stdin, capture_output=True, text=True, cwd=cwd, env=self.env,
                              timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    base = tmp_path_factory.mktemp("release")
    dist = base / "dist"
    # built from a copy of the tree, so that the build's egg-info never lands in the checkout (where it
    # would read as an installed solo)
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "__pycache__", "*.egg-info", "build", "dist",
                                                                "*.sqlite"))
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SOLO_", "PYTHONPATH"))}
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(dist), str(source)],
                           capture_output=True, text=True, timeout=600, env=clean)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    # a clean environment: no site packages, no pip of its own (this environment's pip installs into it)
    venv.EnvBuilder(with_pip=False, clear=True).create(base / "venv")
    wheel = next(dist.glob("solo-*.whl"))
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(base / "venv" / "bin" / "python"), "install",
                          "--no-compile", "--disable-pip-version-check", "--quiet", str(wheel)],
                         capture_output=True, text=True, timeout=600, env=clean)
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    home = base / "home"
    home.mkdir()
    return Installed(dist, base / "venv", home)


def package_files() -> set[str]:
    """Every file of the package in this tree (what the wheel must carry), compiled files aside."""
    return {p.relative_to(ROOT).as_posix() for p in (ROOT / "solo").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")}


def test_the_wheel_and_the_sdist_carry_every_file_solo_reads(installed):
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    missing = package_files() - names
    assert not missing, f"the wheel lacks {sorted(missing)[:10]}: declare them as package-data in pyproject.toml"
    for needed in ("solo/py.typed", "solo/prompts/_memory.j2", "solo/oracle_tables/meaning.toml",
                   "solo/rules/enigma/data/adventures/first_adventure.toml"):
        assert needed in names
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    with zipfile.ZipFile(installed.wheel) as wheel:
        metadata = wheel.read(meta).decode()
        assert {"LICENSE", "NOTICE"} <= {Path(n).name for n in names if ".dist-info/licenses/" in n}
    assert f"Version: {solo.__version__}" in metadata
    assert "License-Expression: MIT AND CC-BY-NC-4.0" in metadata
    assert "Classifier: Topic :: Games/Entertainment :: Role-Playing" in metadata
    with tarfile.open(installed.sdist) as sdist:
        inside = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert package_files() <= inside and {"LICENSE", "NOTICE", "README.md", "pyproject.toml"} <= inside


def test_version_and_the_package_come_from_the_install(installed, tmp_path):
    shown = installed.run("solo", "--version", cwd=tmp_path)
    assert shown.returncode == 0 and shown.stdout.strip() == f"solo {solo.__version__}"
    module = installed.run("python", "-m", "solo", "--version", cwd=tmp_path)
    assert module.returncode == 0 and module.stdout == shown.stdout
    where = installed.run("python", "-c", "import solo; print(solo.__file__)", cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(installed.venv), where.stdout + where.stderr


def test_every_system_plays_what_it_ships_from_an_empty_folder(installed, tmp_path):
    """One script per system through the installed `solo` command: every line succeeds, the oracle's
    answer carries its meaning (`--why`, from the shared tables), and `export md` writes the story."""
    empty = tmp_path / "empty"
    empty.mkdir()
    lines = [line for name, session in SESSIONS.items() for line in (*session, f"export md {name}.md")]
    run = installed.run("solo", "--db", str(tmp_path / "j.sqlite"), "script", "-", "--json", cwd=empty,
                        stdin="\n".join(lines))
    assert "Traceback" not in run.stderr and run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = [json.loads(x) for x in run.stdout.splitlines()]
    assert [o["command"] for o in out] == lines and all(o["ok"] for o in out)
    whys = [o for o in out if o["command"].endswith("--why")]
    assert len(whys) == len(SESSIONS) and all(o["result"]["why"]["action"] and o["result"]["why"]["subject"]
                                                  for o in whys), whys
    for name, session in SESSIONS.items():
        exported = (empty / f"{name}.md").read_text(encoding="utf-8")
        assert f"rules: {name}" in exported and session[-1].removesuffix(" --why").removeprefix("ask ") in exported
    started = {o["result"]["rules"]: o["result"] for o in out if o["command"].startswith("campaign new")}
    assert set(started) == set(SESSIONS)
    assert all("adventure" in started[name] for name in SESSIONS if name != "beyond-code")


def test_a_wrong_adventure_name_lists_the_shipped_ones(installed, tmp_path):
    run = installed.run("solo", "--db", str(tmp_path / "j.sqlite"), "campaign", "new", "X", "--from", "first_adventur",
                        cwd=tmp_path)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    told = run.stdout + run.stderr
    assert all(name in told for name in ("first_adventure", "rhun_salt_and_ash", "haasteet_the_drowned_bell",
                                         "alpha_the_salt_road_toll", "the_clockwork_zeppelin")), told


def test_a_stand_in_model_renders_every_systems_prompt_from_the_installed_templates(installed, tmp_path):
    """The prompts (each system's prefix, the shared story-memory block) render from the wheel's
    templates: with an adventure's canon, its memory block is in the prompt."""
    run = installed.run("python", "-c", DRIVER, json.dumps(SESSIONS), cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert Path(out.pop("solo")).is_relative_to(installed.venv)
    for name, played in out.items():
        assert not played["errors"], (name, played["errors"])
        assert played["prompts"], f"{name}: no prompt was rendered"
        prompt = played["prompts"][0]
        assert "\nTask: " in prompt and prompt.rstrip().split("\n")[-1].startswith("Narration:"), (name, prompt[-400:])
        if name != "beyond-code":  # an adventure seeds the canon, told by the shared _memory.j2
            assert "Established in this story (never contradict it):" in prompt, (name, prompt[:2000])
