// A marker clip made in memory: the labels given, three frames of distinct positions, all measured.
#pragma once

#include <string>
#include <vector>

#include "mimic/mocap/clip.hpp"

namespace mimic::test {

inline mocap::Clip marker_clip(const std::vector<std::string>& labels) {
  mocap::MarkerClip m;
  m.labels = labels;
  m.raw_labels = labels;
  m.rate = 100.0;
  for (int f = 0; f < 3; ++f) {
    for (std::size_t i = 0; i < labels.size(); ++i) {
      m.positions.emplace_back(0.01 * static_cast<double>(i), 0.1 * static_cast<double>(i % 3),
                               1.0 + 0.02 * f);
      m.states.push_back(mocap::SampleState::kMeasured);
    }
  }
  mocap::Clip clip;
  clip.data = std::move(m);
  clip.source = "markers.c3d";
  clip.format = mocap::ClipFormat::kC3d;
  return clip;
}

}  // namespace mimic::test
