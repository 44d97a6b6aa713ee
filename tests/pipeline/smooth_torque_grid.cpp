// The first solve's torque-limit samples (pipeline::initial_torque_samples, issue 15): every torque_stride-th
// sample moved to its nearest node of the torque objective's quadrature, so that the limit rows share the
// node's torques and RNEA derivatives, plus the last sample.
#include <gtest/gtest.h>

#include <iterator>
#include <set>

#include "mimic/pipeline/smooth.hpp"

namespace mimic::pipeline {
namespace {

TEST(InitialTorqueSamples, ObjectiveStrideOneIsThePlainGrid) {
  EXPECT_EQ(initial_torque_samples(25, 10, 1), (std::set<int>{0, 10, 20, 24}));
  EXPECT_EQ(initial_torque_samples(21, 10, 1), (std::set<int>{0, 10, 20}));
}

TEST(InitialTorqueSamples, EachGridSampleMovesToItsNearestNode) {
  // Nodes every 3 samples: 10 -> 9, 20 -> 21, 40 -> 39, 50 -> 51; 30 and 60 are nodes.
  EXPECT_EQ(initial_torque_samples(61, 10, 3), (std::set<int>{0, 9, 21, 30, 39, 51, 60}));
  // The last sample stays, although 10 samples after the last node (the problem's end is fixed).
  EXPECT_EQ(initial_torque_samples(12, 10, 3), (std::set<int>{0, 9, 11}));
}

TEST(InitialTorqueSamples, AsManySamplesAsThePlainGridAllOnNodes) {
  for (const int samples : {3, 50, 1741, 3732})
    for (const int objective_stride : {1, 2, 3, 4}) {
      const std::set<int> plain = initial_torque_samples(samples, 10, 1);
      const std::set<int> grid = initial_torque_samples(samples, 10, objective_stride);
      EXPECT_EQ(grid.size(), plain.size()) << samples << " " << objective_stride;
      int previous = -1;
      for (const int k : grid) {
        EXPECT_TRUE(k % objective_stride == 0 || k == samples - 1) << k;
        if (k != samples - 1 && previous >= 0) {
          EXPECT_LE(k - previous, 10 + objective_stride) << k;
        }
        previous = k;
      }
    }
}

}  // namespace
}  // namespace mimic::pipeline
