// Contacts read from a clip (retarget/clip_contacts): synthetic marker clips whose footsteps are known
// exactly (a walk along an arc, a jump), noise included; the shipped standing clip; the shared clips, whose
// numbers are printed (travel, steps, cadence) and checked for plausibility.
#include "mimic/retarget/clip_contacts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <iterator>
#include <map>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

constexpr double kRate = 120.0;
constexpr double kFloor = 0.015;       // the synthetic floor is not at z = 0: it must be found
constexpr double kAnkleHeight = 0.08;  // ankle joint above the floor when the foot is down
constexpr double kNoise = 0.001;       // m, standard deviation of every marker coordinate

// The pose of a synthetic body at one frame: the pelvis (centre, yaw) and each foot's ankle and heading.
struct BodyPose {
  Eigen::Vector3d pelvis;
  double yaw = 0.0;
  std::array<Eigen::Vector3d, 2> ankle;  // right, left
  std::array<double, 2> heading{};
};

Eigen::Matrix3d yaw_rotation(double yaw) { return Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()).matrix(); }

// Plug-in Gait markers of a body pose (the markers select_preset recognises), each with Gaussian noise.
std::map<std::string, Eigen::Vector3d> markers_of(const BodyPose& b, std::mt19937& rng) {
  std::map<std::string, Eigen::Vector3d> m;
  const Eigen::Matrix3d r = yaw_rotation(b.yaw);
  auto body = [&](const char* label, double x, double y, double z) {
    m[label] = b.pelvis + r * Eigen::Vector3d(x, y, z);
  };
  for (const double side : {1.0, -1.0}) {
    const std::string s = side > 0 ? "L" : "R";
    body((s + "ASI").c_str(), 0.07, side * 0.12, 0.0);
    body((s + "PSI").c_str(), -0.1, side * 0.05, 0.02);
    body((s + "FHD").c_str(), 0.08, side * 0.07, 0.75);
    body((s + "BHD").c_str(), -0.08, side * 0.07, 0.75);
    body((s + "SHO").c_str(), 0.0, side * 0.18, 0.48);
    body((s + "ELB").c_str(), 0.0, side * 0.2, 0.2);
    body((s + "WRA").c_str(), 0.02, side * 0.2, -0.05);
    body((s + "WRB").c_str(), -0.02, side * 0.2, -0.05);
    body((s + "FIN").c_str(), 0.0, side * 0.2, -0.12);
    const int foot = side > 0 ? 1 : 0;
    const Eigen::Vector3d hip = b.pelvis + r * Eigen::Vector3d(-0.015, side * 0.085, 0.01);
    const Eigen::Vector3d& ankle = b.ankle[static_cast<std::size_t>(foot)];
    m[s + "KNE"] = 0.5 * (hip + ankle) + r * Eigen::Vector3d(0.05, 0.0, 0.0);
    m[s + "ANK"] = ankle;
    m[s + "TOE"] =
        ankle + yaw_rotation(b.heading[static_cast<std::size_t>(foot)]) * Eigen::Vector3d(0.14, 0, -0.05);
  }
  body("CLAV", 0.08, 0.0, 0.45);
  body("STRN", 0.1, 0.0, 0.3);
  body("C7", -0.08, 0.0, 0.5);
  body("T10", -0.12, 0.0, 0.3);
  std::normal_distribution<double> noise(0.0, kNoise);
  for (auto& [label, p] : m) p += Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
  return m;
}

mocap::Clip marker_clip(const std::vector<BodyPose>& poses) {
  std::mt19937 rng(14);
  mocap::MarkerClip clip;
  clip.rate = kRate;
  for (const BodyPose& pose : poses) {
    const auto m = markers_of(pose, rng);
    if (clip.labels.empty())
      for (const auto& [label, p] : m) clip.labels.push_back(label);
    for (const auto& [label, p] : m) {
      clip.positions.push_back(p);
      clip.states.push_back(mocap::SampleState::kMeasured);
    }
  }
  clip.raw_labels = clip.labels;
  mocap::Clip out;
  out.data = std::move(clip);
  out.source = "synthetic.c3d";
  out.format = mocap::ClipFormat::kC3d;
  return out;
}

// A walk along an arc of radius 3 m: both feet side by side at the start, 8 steps of 0.3 m along the arc
// per foot move (the first and last are half strides), feet 0.2 m apart. Step i lifts its foot (right for
// even i) at frame 60 + 60 i and puts it down 48 frames (0.4 s) later: 0.1 s of double support.
struct PlannedStep {
  int foot, lift, touchdown;
  double arc;  // where it lands, along the arc
};
constexpr double kRadius = 3.0;
constexpr int kSteps = 8, kStart = 60, kPeriod = 60, kSwing = 48;

std::vector<PlannedStep> walking_plan() {
  std::vector<PlannedStep> plan;
  for (int i = 0; i < kSteps; ++i)
    plan.push_back(
        {i % 2, kStart + kPeriod * i, kStart + kPeriod * i + kSwing, 0.3 * (i + 1 < kSteps ? i + 1 : i)});
  return plan;
}

Eigen::Vector3d on_arc(double s, double lateral, double height) {
  const double a = s / kRadius;
  return {kRadius * std::sin(a) - lateral * std::sin(a),
          kRadius * (1.0 - std::cos(a)) + lateral * std::cos(a), height};
}

std::vector<BodyPose> walking_poses(const std::vector<PlannedStep>& plan) {
  const int frames = plan.back().touchdown + 60;
  std::vector<BodyPose> poses(static_cast<std::size_t>(frames));
  for (int k = 0; k < frames; ++k) {
    std::array<double, 2> arc{0.0, 0.0}, lift{0.0, 0.0};
    for (const PlannedStep& p : plan) {
      if (k < p.lift) continue;
      const double from = arc[static_cast<std::size_t>(p.foot)];
      const double u = std::min(1.0, static_cast<double>(k - p.lift) / (p.touchdown - p.lift));
      // Horizontal: zero speed at both ends; vertical: a sine arch, so the foot leaves and lands with a
      // vertical speed, as a real heel strike does.
      arc[static_cast<std::size_t>(p.foot)] =
          from + (p.arc - from) * (1.0 - std::cos(std::numbers::pi * u)) / 2.0;
      lift[static_cast<std::size_t>(p.foot)] = 0.08 * std::sin(std::numbers::pi * u);
    }
    BodyPose& b = poses[static_cast<std::size_t>(k)];
    for (int f = 0; f < 2; ++f) {
      b.ankle[static_cast<std::size_t>(f)] =
          on_arc(arc[static_cast<std::size_t>(f)], f == 0 ? -0.1 : 0.1,
                 kFloor + kAnkleHeight + lift[static_cast<std::size_t>(f)]);
      b.heading[static_cast<std::size_t>(f)] = arc[static_cast<std::size_t>(f)] / kRadius;
    }
    const double s = 0.5 * (arc[0] + arc[1]);
    const double t = static_cast<double>(k - kStart) / kPeriod;  // steps since the first lift
    const double sway = k > kStart && k < plan.back().touchdown ? 0.03 * std::sin(std::numbers::pi * t) : 0.0;
    b.pelvis = on_arc(s, sway, kFloor + 0.95);
    b.yaw = s / kRadius;
  }
  return poses;
}

TEST(ClipContacts, SyntheticWalkGivesTheKnownStepsTimesAndPositions) {
  const auto plan = walking_plan();
  const auto poses = walking_poses(plan);
  const LandmarkTrack track = extract_landmarks(marker_clip(poses));
  ASSERT_EQ(track.preset, "plug-in-gait");
  const ClipContacts c = detect_clip_contacts(track);

  // Hip-knee-ankle of the synthetic body: about 0.88 m.
  EXPECT_NEAR(c.leg_length, 0.88, 0.03);
  // The floor is the toes' level: 0.03 m above the true floor (ankle 0.08, toe 0.05 below it).
  EXPECT_NEAR(c.floor, kFloor + kAnkleHeight - 0.05, 0.003);
  EXPECT_TRUE(c.flights.empty());
  EXPECT_FALSE(c.stands_still);
  ASSERT_EQ(c.step_count(), kSteps);
  ASSERT_EQ(c.footsteps.size(), static_cast<std::size_t>(kSteps + 2));  // + the two initial stances

  // Expected support phases per foot: from the start to its first lift, then from each touchdown to the
  // next lift of that foot (or the end).
  const int last_frame = static_cast<int>(poses.size()) - 1;
  int worst_frames = 0;
  double worst_position = 0.0;
  for (int foot = 0; foot < 2; ++foot) {
    std::vector<const ClipFootstep*> found;
    for (const auto& s : c.footsteps)
      if (static_cast<int>(s.foot) == foot) found.push_back(&s);
    std::vector<const PlannedStep*> mine;
    for (const auto& p : plan)
      if (p.foot == foot) mine.push_back(&p);
    ASSERT_EQ(found.size(), mine.size() + 1) << "foot " << foot;
    for (std::size_t j = 0; j < found.size(); ++j) {
      const int first = j == 0 ? 0 : mine[j - 1]->touchdown;
      const int last = j < mine.size() ? mine[j]->lift : last_frame;
      const double arc = j == 0 ? 0.0 : mine[j - 1]->arc;
      const Eigen::Vector3d where = on_arc(arc, foot == 0 ? -0.1 : 0.1, 0.0);
      SCOPED_TRACE("foot " + std::to_string(foot) + ", phase " + std::to_string(j));
      // Within two frames: the speed is a central difference over +-2 frames at 120 Hz.
      EXPECT_NEAR(found[j]->interval.first, first, 2);
      EXPECT_NEAR(found[j]->interval.last, last, 2);
      EXPECT_EQ(found[j]->step, j > 0);
      // Within a centimetre (noise 1 mm, median over the phase).
      EXPECT_LT((found[j]->position - where.head<2>()).norm(), 0.01);
      worst_frames = std::max({worst_frames, std::abs(found[j]->interval.first - first),
                               std::abs(found[j]->interval.last - last)});
      worst_position = std::max(worst_position, (found[j]->position - where.head<2>()).norm());
      EXPECT_NEAR(found[j]->heading, arc / kRadius, 1.0 * std::numbers::pi / 180.0);
    }
  }
  std::cout << "synthetic walk: phase ends within " << worst_frames << " frame(s), footsteps within "
            << worst_position << " m, travel " << c.travel << " m\n";
  // The pelvis travels along the arc from 0 to the last feet's mean, 2.1 m; the sway of +-3 cm at the
  // stride frequency is averaged out by the one-second window (a few millimetres remain).
  EXPECT_NEAR(c.travel, 0.3 * (kSteps - 1), 0.03);
  EXPECT_NEAR(c.displacement, 2.0 * kRadius * std::sin(0.3 * (kSteps - 1) / (2.0 * kRadius)), 0.02);
  // One step every 0.5 s.
  EXPECT_NEAR(c.cadence(), 120.0, 0.5);
}

TEST(ClipContacts, SyntheticJumpHasAFlightPhase) {
  // Stand 0.5 s, both feet leave together at frame 60 and land 36 frames (0.3 s) later 0.3 m ahead, stand
  // 0.5 s.
  constexpr int lift = 60, land = 96, frames = 156;
  std::vector<BodyPose> poses(frames);
  for (int k = 0; k < frames; ++k) {
    const double u = std::clamp(static_cast<double>(k - lift) / (land - lift), 0.0, 1.0);
    const double x = 0.3 * u, z = 0.15 * 4.0 * u * (1.0 - u);  // a parabola
    BodyPose& b = poses[static_cast<std::size_t>(k)];
    b.ankle = {Eigen::Vector3d(x, -0.1, kFloor + kAnkleHeight + z),
               Eigen::Vector3d(x, 0.1, kFloor + kAnkleHeight + z)};
    b.pelvis = Eigen::Vector3d(x, 0.0, kFloor + 0.95 + z);
  }
  const ClipContacts c = detect_clip_contacts(extract_landmarks(marker_clip(poses)));
  ASSERT_EQ(c.flights.size(), 1u);
  EXPECT_NEAR(c.flights[0].first, lift + 1, 2);
  EXPECT_NEAR(c.flights[0].last, land - 1, 2);
  EXPECT_EQ(c.step_count(), 2);  // both feet land 0.3 m from where they took off
  EXPECT_FALSE(c.stands_still);
}

TEST(ClipContacts, SyntheticStandingClipHasNoStepAndNoTravel) {
  // Two seconds on both feet, the pelvis swaying +-1 cm sideways at 0.5 Hz (4 cm of path, which the
  // one-second window shortens to 2.5 cm) and bobbing, 1 mm noise on every marker: no step, and a travel of
  // centimetres (the pelvis noise alone would add about 0.2 m of path over 240 frames without the window).
  std::vector<BodyPose> poses(240);
  for (int k = 0; k < 240; ++k) {
    const double phase = 2.0 * std::numbers::pi * 0.5 * k / kRate;
    BodyPose& b = poses[static_cast<std::size_t>(k)];
    b.ankle = {Eigen::Vector3d(0.0, -0.1, kFloor + kAnkleHeight),
               Eigen::Vector3d(0.0, 0.1, kFloor + kAnkleHeight)};
    b.pelvis = Eigen::Vector3d(0.0, 0.01 * std::sin(phase), kFloor + 0.95 + 0.01 * std::cos(phase));
  }
  const ClipContacts c = detect_clip_contacts(extract_landmarks(marker_clip(poses)));
  EXPECT_EQ(c.step_count(), 0);
  ASSERT_EQ(c.footsteps.size(), 2u);  // each foot's stance from the first frame to the last
  for (const auto& s : c.footsteps) {
    EXPECT_EQ(s.interval.first, 0);
    EXPECT_EQ(s.interval.last, 239);
  }
  EXPECT_TRUE(c.flights.empty());
  EXPECT_TRUE(c.stands_still);
  EXPECT_LT(c.travel, 0.035);
}

TEST(ClipContacts, ShippedBoxerStepsAsKeyframedAndEndsWhereHeStarted) {
  // data/mocap/boxing.bvh is keyframed by scripts/make_sample_clips.py: the right foot steps 0.30 m back
  // into the stance (the left foot shifts 8 cm, less than a step), a shuffle forward of 0.25 m (left,
  // then right) and one back of 0.22 m (right, then left). The pelvis follows: 0.11 + 0.25 + 0.22 m of
  // path, and ends 8 cm from where it started.
  const mocap::Clip clip = mocap::load_clip(test::source_dir() / "data" / "mocap" / "boxing.bvh");
  const ClipContacts c = detect_clip_contacts(extract_landmarks(clip));
  std::vector<std::pair<ClipFoot, double>> steps;
  for (const auto& s : c.footsteps)
    if (s.step) steps.emplace_back(s.foot, s.stride);
  const std::vector<std::pair<ClipFoot, double>> keyframed = {{ClipFoot::kRight, 0.30},
                                                              {ClipFoot::kLeft, 0.25},
                                                              {ClipFoot::kRight, 0.25},
                                                              {ClipFoot::kRight, 0.22},
                                                              {ClipFoot::kLeft, 0.22}};
  ASSERT_EQ(steps.size(), keyframed.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].first, keyframed[i].first) << "step " << i;
    EXPECT_NEAR(steps[i].second, keyframed[i].second, 0.01) << "step " << i;
  }
  EXPECT_TRUE(c.flights.empty());
  EXPECT_FALSE(c.stands_still);
  EXPECT_NEAR(c.travel, 0.58, 0.02);
  EXPECT_LT(c.displacement, 0.1);
}

// data/mocap/walk.bvh, planned by scripts/make_sample_clips.py (`--steps` prints this table): each step's
// foot, heel strike time and where its ankle stands while the foot is flat (m, x forward, y left) with the
// foot's heading (degrees). Stand 1.5 s, a half step (0.35 m), 8 steps of 0.6 m at 105 steps/min with a
// 40 degree turn to the left between 2.4 and 3.6 m of the path, a closing step beside the other foot.
struct PlannedWalkStep {
  ClipFoot foot;
  double strike, x, y, heading;
};
constexpr ClipFoot kR = ClipFoot::kRight, kL = ClipFoot::kLeft;
const PlannedWalkStep kWalkSample[] = {
    {kR, 1.9571, 0.3500, -0.0700, 0.00}, {kL, 2.5286, 0.9500, 0.0700, 0.00},
    {kR, 3.1000, 1.5500, -0.0700, 0.00}, {kL, 3.6714, 2.1500, 0.0700, 0.00},
    {kR, 4.2429, 2.7571, -0.0592, 6.09}, {kL, 4.8143, 3.2530, 0.2936, 37.42},
    {kR, 5.3857, 3.8021, 0.5677, 40.00}, {kL, 5.9571, 4.1717, 1.0606, 40.00},
    {kR, 6.5286, 4.7214, 1.3391, 40.00}, {kL, 7.1000, 4.6314, 1.4463, 40.00}};
constexpr double kWalkDoubleSupport = 0.1 * 2.0 * 60.0 / 105.0;  // s: 10 % of the gait cycle

TEST(ClipContacts, ShippedWalkerStepsWhereTheScriptPutHisFeet) {
  const mocap::Clip clip = mocap::load_clip(test::source_dir() / "data" / "mocap" / "walk.bvh");
  const ClipContacts c = detect_clip_contacts(extract_landmarks(clip));
  std::vector<const ClipFootstep*> steps;
  for (const auto& s : c.footsteps)
    if (s.step) steps.push_back(&s);
  ASSERT_EQ(steps.size(), std::size(kWalkSample));
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const ClipFootstep& s = *steps[i];
    const PlannedWalkStep& p = kWalkSample[i];
    SCOPED_TRACE("step " + std::to_string(i));
    EXPECT_EQ(s.foot, p.foot);
    // Touchdown within 2 frames of the heel strike (the speed window is +-2 frames).
    EXPECT_NEAR(s.interval.first, p.strike * kRate, 2.0);
    EXPECT_LT((s.position - Eigen::Vector2d(p.x, p.y)).norm(), 0.02);
    EXPECT_NEAR(s.heading * 180.0 / std::numbers::pi, p.heading, 2.0);
    // Double support: the other foot's previous support phase ends about 10 % of a cycle after this one
    // starts (its lift-off is dated within 2 frames too), except after the closing step: both feet stay.
    if (i + 1 == steps.size()) continue;
    const auto other = std::find_if(c.footsteps.rbegin(), c.footsteps.rend(), [&](const ClipFootstep& f) {
      return f.foot != s.foot && f.interval.first < s.interval.first;
    });
    ASSERT_NE(other, c.footsteps.rend());
    EXPECT_NEAR(other->interval.end - s.interval.start, kWalkDoubleSupport, 4.0 / kRate);
  }
  EXPECT_TRUE(c.flights.empty());
  EXPECT_FALSE(c.stands_still);
  EXPECT_NEAR(c.cadence(), 105.0, 1.0);
  // The pelvis path: 0.35 + 8 x 0.6 m = 5.15 m of footstep path, the pelvis stopping between the last two.
  EXPECT_NEAR(c.travel, 5.1, 0.1);
}

// The same walk as Plug-in Gait markers: the same steps at the same times, the feet pointing the same way.
// (The positions differ: the ankle landmark is the lateral malleolus marker, 6 cm outside the joint centre;
// the heading is read from the heel marker to the toe marker, which lie on the foot's long axis, not from
// that ankle marker, whose line to the toe points 25 degrees outwards.)
TEST(ClipContacts, ShippedWalkerMarkersStepAsTheSkeleton) {
  const ClipContacts bvh =
      detect_clip_contacts(extract_landmarks(mocap::load_clip(test::source_dir() / "data/mocap/walk.bvh")));
  const ClipContacts c3d =
      detect_clip_contacts(extract_landmarks(mocap::load_clip(test::source_dir() / "data/mocap/walk.c3d")));
  ASSERT_EQ(c3d.footsteps.size(), bvh.footsteps.size());
  for (std::size_t i = 0; i < c3d.footsteps.size(); ++i) {
    EXPECT_EQ(c3d.footsteps[i].foot, bvh.footsteps[i].foot) << i;
    EXPECT_EQ(c3d.footsteps[i].step, bvh.footsteps[i].step) << i;
    EXPECT_NEAR(c3d.footsteps[i].interval.first, bvh.footsteps[i].interval.first, 2) << i;
    // The markers ride on the same animated skeleton: a few degrees for the markers' own offsets from the
    // joints' axes and the frames of rolling over heel and ball (measured below 1 degree).
    EXPECT_NEAR(c3d.footsteps[i].heading * 180.0 / std::numbers::pi,
                bvh.footsteps[i].heading * 180.0 / std::numbers::pi, 3.0)
        << i;
  }
  EXPECT_TRUE(c3d.flights.empty());
  EXPECT_NEAR(c3d.travel, bvh.travel, 0.02);
}

TEST(ClipContacts, MissingFeetAreAnErrorThatSaysWhich) {
  LandmarkTrack track;
  track.source = "clip.c3d";
  track.preset = "test";
  track.rate = 100.0;
  track.available[static_cast<std::size_t>(index(Landmark::kPelvis))] = true;
  track.frames.resize(3);
  try {
    detect_clip_contacts(track);
    FAIL() << "a track without feet was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("right_ankle"), std::string::npos) << what;
    EXPECT_NE(what.find("left_hip"), std::string::npos) << what;
  }
}

// The shared clips: each clip's numbers are printed (the issue asks for them per clip) and checked against
// what the clip is known to show.
struct SharedCase {
  const char* file;
  int min_steps, max_steps;
  double min_travel, max_travel;  // m
  bool flight;                    // the clip has at least one flight phase
};
void PrintTo(const SharedCase& c, std::ostream* os) { *os << c.file; }

class SharedClipContacts : public ::testing::TestWithParam<SharedCase> {};

TEST_P(SharedClipContacts, HavePlausibleStepsAndTravel) {
  const SharedCase& sc = GetParam();
  MIMIC_REQUIRE_SHARED(path, std::string("mocap/") + sc.file);
  const ClipContacts c = detect_clip_contacts(extract_landmarks(mocap::load_clip(path)));
  std::cout << sc.file << ": travel " << c.travel << " m, displacement " << c.displacement << " m, "
            << c.step_count() << " steps, cadence " << c.cadence() << " steps/min, " << c.flights.size()
            << " flight phase(s), leg length " << c.leg_length << " m\n";
  EXPECT_GE(c.step_count(), sc.min_steps);
  EXPECT_LE(c.step_count(), sc.max_steps);
  EXPECT_GE(c.travel, sc.min_travel);
  EXPECT_LE(c.travel, sc.max_travel);
  EXPECT_EQ(!c.flights.empty(), sc.flight);
  EXPECT_EQ(c.stands_still, c.step_count() == 0 && c.travel < 0.2 * c.leg_length);
}

// What each clip shows, from its description (../shared/mocap/README.md) and from looking at it: ranges
// wide enough for a detector's judgement on the odd foot shuffle, narrow enough to catch a detector that
// misses a walk or invents one.
INSTANTIATE_TEST_SUITE_P(
    Clips, SharedClipContacts,
    ::testing::Values(
        // CMU 131_01 "start, walk, stop", Michael-Jackson styled: a kick, a lunge sideways, a walk of
        // 2.6 m, and a tiptoe stand at the end (a support, not a flight).
        SharedCase{"bvh/bvh11__cmu_131_01.bvh", 8, 16, 3.0, 4.5, false},
        SharedCase{"bvh/bvh11__cmu_scaled_131_01.bvh", 8, 16, 3.0, 4.5, false},
        // CMU 131_03 "start, hop, stop": the hop is a flight.
        SharedCase{"bvh/bvh11__cmu_131_03.bvh", 10, 20, 3.0, 4.5, true},
        // CMU 01_03: climbs a ladder and hangs from a bar: seconds without a foot on the floor.
        SharedCase{"bvh/assimp__cmu_01_03.bvh", 10, 40, 5.0, 20.0, true},
        // MakeHuman's walk cycle is in place (treadmill): the feet slide back, the pelvis does not travel.
        SharedCase{"bvh/makehuman__walk1.bvh", 0, 0, 0.0, 0.05, false},
        // Xsens capture: a straight walk of about 10 m.
        SharedCase{"c3d/c3dorg-s34__xsens_AlbertoINT.c3d", 12, 24, 9.0, 11.5, false},
        // Qualisys: 1.7 s of a brisk walk, 2.5 m.
        SharedCase{"c3d/ezc3d__Qualisys.c3d", 3, 6, 2.0, 3.0, false},
        // OptiTrack: walks about and comes back, 5 m of path.
        SharedCase{"c3d/btkdata__optitrack_mocap36.c3d", 8, 18, 4.0, 6.0, false},
        // NexGen: stands in place for the whole capture.
        SharedCase{"c3d/c3dorg-s00__nexgen_test1.c3d", 0, 0, 0.0, 0.05, false}));

}  // namespace
}  // namespace mimic::retarget
