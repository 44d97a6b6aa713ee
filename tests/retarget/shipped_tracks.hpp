// Landmark tracks of the shipped clips for the retarget tests of in-place and looping walks
// (tests/retarget/in_place_cycle.cpp, tests/retarget/clip_loop.cpp).
#pragma once

#include <Eigen/Core>

#include "mimic/mocap/load.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget::test_tracks {

// data/mocap/<file>'s landmarks.
inline LandmarkTrack shipped(const char* file) {
  return extract_landmarks(mocap::load_clip(mimic::test::source_dir() / "data" / "mocap" / file));
}

// The track as a game's in-place cycle is made: the pelvis' horizontal travel from the first frame
// subtracted from every landmark of every frame.
inline LandmarkTrack made_in_place(LandmarkTrack track) {
  const Eigen::Vector2d start = track.frames.front()[Landmark::kPelvis].head<2>();
  for (LandmarkFrame& f : track.frames) {
    const Eigen::Vector2d d = f[Landmark::kPelvis].head<2>() - start;
    for (Eigen::Vector3d& p : f.position) p.head<2>() -= d;
  }
  return track;
}

}  // namespace mimic::retarget::test_tracks
