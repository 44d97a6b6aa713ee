# mimic.load_clip on the shipped boxing clip, as BVH skeleton and as C3D markers.
import numpy as np
import pytest

import mimic
from conftest import BOXING_BVH, BOXING_C3D


def test_bvh_skeleton():
    clip = mimic.load_clip(BOXING_BVH)
    assert clip.kind == "BVH"
    assert clip.frame_count == 960  # data/mocap/boxing.bvh: 960 frames of 1/120 s
    assert clip.rate == pytest.approx(1 / 0.0083333)
    assert clip.duration == pytest.approx(960 * 0.0083333)
    assert clip.names[0] == "Hips" and clip.parents[0] == -1
    assert len(clip.parents) == len(clip.names)
    assert all(parent < index for index, parent in enumerate(clip.parents))
    assert clip.frames.shape == (960, len(clip.channels))
    # The root's three translations, named in mimic's axes (the file's Y-up axes are converted).
    assert {joint for joint, _ in clip.channels[:3]} == {"Hips"}
    assert sorted(channel for _, channel in clip.channels[:3]) == ["Xposition", "Yposition", "Zposition"]
    positions = clip.positions
    assert positions.shape == (960, len(clip.names), 3)
    # Metres and z up: the subject stands between 1.4 and 2.1 m tall (head above the feet).
    height = positions[0, :, 2].max() - positions[0, :, 2].min()
    assert 1.4 < height < 2.1


def test_bvh_frames_are_a_read_only_view():
    clip = mimic.load_clip(BOXING_BVH)
    a, b = clip.frames, clip.frames
    assert np.shares_memory(a, b) and not a.flags.writeable and not a.flags.owndata
    del clip  # the view keeps the clip alive
    assert np.isfinite(a).all()


def test_c3d_markers():
    clip = mimic.load_clip(BOXING_C3D)
    assert clip.kind == "C3D"
    assert clip.parents is None and clip.channels is None
    assert clip.frames.shape == (clip.frame_count, len(clip.names), 3)
    assert clip.duration == pytest.approx(clip.frame_count / clip.rate)
    assert np.shares_memory(clip.frames, clip.positions)
    assert 1.4 < np.nanmax(clip.frames[0, :, 2]) - np.nanmin(clip.frames[0, :, 2]) < 2.3


def test_units_override_and_bad_files(tmp_path):
    in_cm = mimic.load_clip(BOXING_BVH, units="cm")
    np.testing.assert_allclose(in_cm.positions, mimic.load_clip(BOXING_BVH).positions, atol=1e-12)
    with pytest.raises(mimic.InputError, match="units"):
        mimic.load_clip(BOXING_BVH, units="furlong")
    broken = tmp_path / "broken.bvh"
    broken.write_text("HIERARCHY\nROOT Hips\n{\n")
    with pytest.raises(mimic.InputError) as info:
        mimic.load_clip(broken)
    assert str(info.value).startswith(str(broken)) and "\n" not in str(info.value)
