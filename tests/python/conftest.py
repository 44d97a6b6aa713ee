# Shared fixtures of the pytest suite of the Python package (ctest label `python`, tests/CMakeLists.txt):
# the package comes from PYTHONPATH=<build>/python, the shipped data from the source tree.
import pathlib

import pytest

import mimic

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
BOXING_BVH = SOURCE_DIR / "data" / "mocap" / "boxing.bvh"
BOXING_C3D = SOURCE_DIR / "data" / "mocap" / "boxing.c3d"


@pytest.fixture(scope="session")
def robot():
    return mimic.load_robot()


@pytest.fixture(scope="session")
def short_bvh(tmp_path_factory):
    """The first 1.5 s (180 frames at 120 Hz) of the boxing clip: a retarget that takes seconds."""
    lines = BOXING_BVH.read_text().splitlines()
    motion = lines.index("MOTION")
    frames = 180
    head = lines[: motion + 1] + [f"Frames: {frames}", lines[motion + 2]]
    path = tmp_path_factory.mktemp("clip") / "boxing_short.bvh"
    path.write_text("\n".join(head + lines[motion + 3 : motion + 3 + frames]) + "\n")
    return path
