// Support detection from sole trajectories (stability/contact_detection.hpp) on synthetic feet: a walk of
// minimum-jerk swings (the walking schedule's profile: z = h 64 tau^3 (1 - tau)^3, x by 10 tau^3 - 15 tau^4
// + 6 tau^5), at 200, 50 and 30 Hz, clean and noisy; a support foot sliding on the floor; a jump.
#include "mimic/stability/contact_detection.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

namespace mimic::stability {
namespace {

using model::ContactPhase;
using spatial::SE3;
using spatial::Vec3;

// HRP-2 soles of config/robots/hrp2.yaml.
const model::SoleRectangle kRightSole{-0.100, 0.130, -0.075, 0.056};
const model::SoleRectangle kLeftSole{-0.100, 0.130, -0.056, 0.075};

SE3 sole_at(double x, double y, double z, double yaw) {
  return SE3(Eigen::AngleAxisd(yaw, Vec3::UnitZ()).toRotationMatrix(), Vec3(x, y, z));
}

double minimum_jerk(double tau) { return tau * tau * tau * (10.0 - 15.0 * tau + 6.0 * tau * tau); }

// A walk as the walking schedule makes it: `hold` s on both feet, then per step a 0.2 s transfer and a
// `swing` s swing of the right then the left foot (0.3 m forward, the third step turning by 0.3 rad,
// clearance 0.05 m), a final 0.2 s transfer and `hold` s. The schedule's phases are kept per sample.
struct Walk {
  std::vector<double> times;
  std::vector<SE3> right, left;
  std::vector<ContactPhase> phases;
  std::vector<double> boundaries;  // s, every change of phase
};

Walk make_walk(double rate, double swing = 0.7, double hold = 1.0, int steps = 4) {
  const double transfer = 0.2, height = 0.05, stride = 0.3;
  const double duration = 2.0 * hold + steps * (transfer + swing) + transfer;
  Walk w;
  const auto n = static_cast<std::size_t>(std::floor(duration * rate + 1e-9)) + 1;
  for (std::size_t k = 0; k < n; ++k) {
    const double t = static_cast<double>(k) / rate;
    double foot[2][3] = {{0.0, -0.1, 0.0}, {0.0, 0.1, 0.0}};  // x, y, yaw of right, left
    double z[2] = {0.0, 0.0};
    ContactPhase phase = ContactPhase::kDoubleSupport;
    for (int s = 0; s < steps; ++s) {
      const int f = s % 2;  // 0 right, 1 left
      const double start = hold + s * (transfer + swing) + transfer;
      const double yaw = s == 2 ? 0.3 : 0.0;
      const double tau = std::clamp((t - start) / swing, 0.0, 1.0);
      // The first step of each foot is half a stride, the others a stride.
      const double length = s < 2 ? 0.5 * stride : stride;
      foot[f][0] += length * minimum_jerk(tau);
      foot[f][2] += yaw * minimum_jerk(tau);
      if (tau > 0.0 && tau < 1.0) {
        z[f] = height * 64.0 * std::pow(tau * (1.0 - tau), 3);
        phase = f == 0 ? ContactPhase::kLeftSupport : ContactPhase::kRightSupport;
      }
    }
    w.times.push_back(t);
    w.right.push_back(sole_at(foot[0][0], foot[0][1], z[0], foot[0][2]));
    w.left.push_back(sole_at(foot[1][0], foot[1][1], z[1], foot[1][2]));
    w.phases.push_back(phase);
  }
  for (int s = 0; s < steps; ++s) {
    const double start = hold + s * (transfer + swing) + transfer;
    w.boundaries.push_back(start);
    w.boundaries.push_back(start + swing);
  }
  return w;
}

// Per-sample disagreements with the schedule, and the farthest of them from a phase change (s).
struct Agreement {
  int differing = 0;
  double farthest = 0.0;
};

Agreement compare(const Walk& w, const std::vector<ContactPhase>& phases) {
  Agreement a;
  for (std::size_t k = 0; k < phases.size(); ++k) {
    if (phases[k] == w.phases[k]) continue;
    ++a.differing;
    double nearest = 1e9;
    for (double b : w.boundaries) nearest = std::min(nearest, std::abs(w.times[k] - b));
    a.farthest = std::max(a.farthest, nearest);
  }
  return a;
}

// The slip `mimic check` measures: how far a support foot's sole origin gets from where its support began.
double max_slip(const std::vector<ContactPhase>& phases, const std::vector<SE3>& right,
                const std::vector<SE3>& left) {
  double slip = 0.0;
  for (int s = 0; s < 2; ++s) {
    const auto& sole = s == 0 ? right : left;
    bool anchored = false;
    Vec3 anchor;
    for (std::size_t k = 0; k < phases.size(); ++k) {
      const bool in =
          s == 0 ? model::right_foot_in_contact(phases[k]) : model::left_foot_in_contact(phases[k]);
      if (!in) {
        anchored = false;
        continue;
      }
      if (!anchored) anchor = sole[k].p, anchored = true;
      slip = std::max(slip, (sole[k].p - anchor).norm());
    }
  }
  return slip;
}

class CleanWalk : public ::testing::TestWithParam<double> {};

// Noise-free: the phases are the schedule's except at most one sample at each phase change (the sample
// nearest a touchdown or lift-off, where the foot is within a micrometre of the floor), and a support
// foot moves by at most the micrometre placement tolerance (x2: the anchor and the sample are each within
// it of the placement) — where the old detection, 5 mm and 0.1 m/s, kept 2.6 mm of the swing.
TEST_P(CleanWalk, PhasesAreTheSchedulesToASample) {
  const double rate = GetParam();
  const Walk w = make_walk(rate);
  const auto phases = detect_contact_phases(w.times, w.right, w.left, kRightSole, kLeftSole);
  const Agreement a = compare(w, phases);
  EXPECT_LE(a.farthest, 1.0 / rate + 1e-9) << "at " << rate << " Hz";
  EXPECT_LE(a.differing, 2 * static_cast<int>(w.boundaries.size())) << "at " << rate << " Hz";
  EXPECT_LE(max_slip(phases, w.right, w.left), 2e-6) << "at " << rate << " Hz";
}

INSTANTIATE_TEST_SUITE_P(Rates, CleanWalk, ::testing::Values(200.0, 100.0, 50.0, 30.0));

// Mocap-like noise (0.3 mm on every coordinate of the soles): the tolerances grow with the measured
// noise, every single support is found, and the phases differ from the schedule only near its changes
// (within the slow ends of a swing, edge_duration), never a lift in a stance.
TEST(ContactDetection, NoisyWalkFollowsTheScheduleNearItsChanges) {
  for (double rate : {200.0, 50.0}) {
    Walk w = make_walk(rate);
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 3e-4);
    for (auto* soles : {&w.right, &w.left})
      for (SE3& s : *soles) s.p += Vec3(noise(rng), noise(rng), noise(rng));
    const auto phases = detect_contact_phases(w.times, w.right, w.left, kRightSole, kLeftSole);
    const Agreement a = compare(w, phases);
    EXPECT_LE(a.farthest, ContactDetectionOptions{}.edge_duration) << "at " << rate << " Hz";
    // Each swing's middle is single support on the other foot.
    for (std::size_t b = 0; b < w.boundaries.size(); b += 2) {
      const auto k =
          static_cast<std::size_t>(std::lround(0.5 * (w.boundaries[b] + w.boundaries[b + 1]) * rate));
      EXPECT_EQ(phases[k], w.phases[k]) << "t = " << w.times[k] << " at " << rate << " Hz";
    }
  }
}

// Both soles sampled at `rate` over [0, duration] s from `pose(t)` (a pair: right, left).
struct Soles {
  std::vector<double> times;
  std::vector<SE3> right, left;
  std::vector<ContactPhase> detect() const {
    return detect_contact_phases(times, right, left, kRightSole, kLeftSole);
  }
};

template <class Pose>
Soles sample_soles(double rate, double duration, Pose pose) {
  Soles soles;
  for (int k = 0; k <= static_cast<int>(std::lround(duration * rate)); ++k) {
    const double t = k / rate;
    const auto [right, left] = pose(t);
    soles.times.push_back(t);
    soles.right.push_back(right);
    soles.left.push_back(left);
  }
  return soles;
}

void expect_double_support_throughout(const std::vector<ContactPhase>& phases) {
  for (std::size_t k = 0; k < phases.size(); ++k) EXPECT_EQ(phases[k], ContactPhase::kDoubleSupport) << k;
}

// A support foot sliding 5 mm over 0.5 s while flat on the floor (in the middle of a 2 s stance, and in
// the middle of a single support) stays in support, so that check sees the slide as slip.
TEST(ContactDetection, SlidingFootStaysInSupportAndShowsItsSlip) {
  const Soles soles = sample_soles(200.0, 2.0, [](double t) {
    const double slide = 0.005 * std::clamp((t - 0.75) / 0.5, 0.0, 1.0);
    return std::pair{sole_at(slide, -0.1, 0.0, 0.0), sole_at(0.0, 0.1, 0.0, 0.0)};
  });
  const auto phases = soles.detect();
  expect_double_support_throughout(phases);
  EXPECT_NEAR(max_slip(phases, soles.right, soles.left), 0.005, 1e-12);

  // The same slide (minimum-jerk: slow at its ends, as a swing's) of the left foot during the 1.3 s
  // swing of the right foot, from 0.4 s into it.
  const double rate = 200.0;
  Walk w = make_walk(rate, 1.3, 1.0, 1);
  const double start = 1.2 + 0.4;
  for (std::size_t k = 0; k < w.times.size(); ++k)
    w.left[k].p.x() += 0.005 * minimum_jerk(std::clamp((w.times[k] - start) / 0.5, 0.0, 1.0));
  const auto walk_phases = detect_contact_phases(w.times, w.right, w.left, kRightSole, kLeftSole);
  EXPECT_LE(compare(w, walk_phases).farthest, 1.0 / rate + 1e-9);
  EXPECT_GE(max_slip(walk_phases, w.right, w.left), 0.005 - 1e-9);
}

// A foot that moves on the floor for longer than the slow end of a swing before it lifts is sliding,
// not leaving: its support lasts until it lifts, and the slide counts as slip.
TEST(ContactDetection, SlideBeforeALiftIsSlipNotSwing) {
  const double rate = 200.0;
  const Soles soles = sample_soles(rate, 2.0, [](double t) {
    // Slides 5 mm from 0.6 to 1.1 s, then rises.
    const double slide = 0.005 * std::clamp((t - 0.6) / 0.5, 0.0, 1.0);
    const double lift = t > 1.1 ? 0.3 * (t - 1.1) : 0.0;
    return std::pair{sole_at(slide, -0.1, lift, 0.0), sole_at(0.0, 0.1, 0.0, 0.0)};
  });
  const auto phases = soles.detect();
  EXPECT_EQ(phases[static_cast<std::size_t>(1.05 * rate)], ContactPhase::kDoubleSupport);
  EXPECT_EQ(phases[static_cast<std::size_t>(1.2 * rate)], ContactPhase::kLeftSupport);
  EXPECT_GE(max_slip(phases, soles.right, soles.left), 0.0049);
}

// A 6 mm spike of one sample on a noisy still foot (noise 0.5 mm: above the 4 mm to leave the floor) is
// a lift of 10 ms, bridged: no lift.
TEST(ContactDetection, ShortSpikeIsBridged) {
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 5e-4);
  const Soles soles = sample_soles(200.0, 2.0, [&](double t) {
    const double spike = std::abs(t - 1.0) < 1e-9 ? 0.006 : 0.0;
    return std::pair{sole_at(noise(rng), -0.1 + noise(rng), spike + noise(rng), 0.0),
                     sole_at(noise(rng), 0.1 + noise(rng), noise(rng), 0.0)};
  });
  expect_double_support_throughout(soles.detect());
}

// A clip of a stance shorter than a support (5 samples, 20 ms): the motion's ends cut the support, which
// is not dropped as too short.
TEST(ContactDetection, ShortClipOfAStanceIsDoubleSupport) {
  expect_double_support_throughout(
      sample_soles(200.0, 0.02, [](double) {
        return std::pair{sole_at(0.0, -0.1, 0.0, 0.0), sole_at(0.0, 0.1, 0.0, 0.0)};
      }).detect());
}

// Both feet in the air (a jump): never a flight, the lower foot carries the robot.
TEST(ContactDetection, NoFlightTheLowerFootSupports) {
  const auto phases =
      sample_soles(100.0, 3.0, [](double t) {
        const bool air = t > 1.0 && t < 2.0;
        const double up = air ? 0.1 * std::sin(M_PI * (t - 1.0)) : 0.0;
        return std::pair{sole_at(0.0, -0.1, up, 0.0), sole_at(0.0, 0.1, up + 0.01 * air, 0.0)};
      }).detect();
  EXPECT_EQ(phases[150], ContactPhase::kRightSupport);
  EXPECT_EQ(phases[50], ContactPhase::kDoubleSupport);
  EXPECT_EQ(phases[250], ContactPhase::kDoubleSupport);
}

// A turn on the spot (the sole's origin still, the foot yawing on the floor) is a motion of its corners:
// a foot turning by 0.1 rad over 0.5 s in a stance stays in support (a slide) and is not still.
TEST(ContactDetection, RotationOnTheFloorIsSlip) {
  expect_double_support_throughout(
      sample_soles(200.0, 2.0, [](double t) {
        const double yaw = 0.1 * std::clamp((t - 0.75) / 0.5, 0.0, 1.0);
        return std::pair{sole_at(0.0, -0.1, 0.0, yaw), sole_at(0.0, 0.1, 0.0, 0.0)};
      }).detect());
}

}  // namespace
}  // namespace mimic::stability
