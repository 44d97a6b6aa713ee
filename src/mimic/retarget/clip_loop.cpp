#include "mimic/retarget/clip_loop.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "mimic/core/error.hpp"
#include "mimic/retarget/clip_contacts.hpp"

namespace mimic::retarget {

namespace {

// The root's horizontal pose at a frame: the pelvis on the floor and its heading about +z.
struct RootPose {
  Eigen::Vector2d p = Eigen::Vector2d::Zero();
  double heading = 0.0;
};

RootPose root_pose(const LandmarkFrame& f) {
  const Eigen::Vector3d forward = f.pelvis_rotation.col(0);
  return {f[Landmark::kPelvis].head<2>(), std::atan2(forward.y(), forward.x())};
}

Eigen::Matrix2d rotation(double angle) { return Eigen::Rotation2Dd(angle).toRotationMatrix(); }

// Landmark l of frame f in the root's frame (horizontal part turned by minus the heading, height as is).
Eigen::Vector3d in_root_frame(const LandmarkFrame& f, const RootPose& root, Landmark l) {
  const Eigen::Vector2d h = rotation(-root.heading) * (f[l].head<2>() - root.p);
  return {h.x(), h.y(), f[l].z()};
}

// The largest displacement of any available landmark, relative to the root, from frame a to frame b.
double pose_step(const LandmarkTrack& track, int a, int b) {
  const LandmarkFrame& fa = track.frames[static_cast<std::size_t>(a)];
  const LandmarkFrame& fb = track.frames[static_cast<std::size_t>(b)];
  const RootPose ra = root_pose(fa), rb = root_pose(fb);
  double step = 0.0;
  for (int i = 0; i < kLandmarkCount; ++i) {
    const auto l = static_cast<Landmark>(i);
    if (!track.has(l)) continue;
    const double d = (in_root_frame(fb, rb, l) - in_root_frame(fa, ra, l)).norm();
    if (std::isfinite(d)) step = std::max(step, d);
  }
  return step;
}

double wrapped_angle(double a) { return std::atan2(std::sin(a), std::cos(a)); }

// The frame's landmarks and orientations turned by `turn` about +z through the origin, then shifted.
void move_frame(LandmarkFrame& f, double turn, const Eigen::Vector2d& shift) {
  const Eigen::Matrix2d r = rotation(turn);
  for (Eigen::Vector3d& p : f.position) p.head<2>() = r * p.head<2>() + shift;  // NaN stays NaN
  Eigen::Matrix3d r3 = Eigen::Matrix3d::Identity();
  r3.topLeftCorner<2, 2>() = r;
  f.pelvis_rotation = r3 * f.pelvis_rotation;
  f.head_rotation = r3 * f.head_rotation;
}

}  // namespace

ClipLoop detect_clip_loop(const LandmarkTrack& track, const ClipLoopOptions& options) {
  ClipLoop out;
  const int n = track.frame_count();
  if (!track.has(Landmark::kPelvis) || n < 4 || track.rate <= 0.0) {
    out.reason = "not a loop: it needs the pelvis and four frames";
    return out;
  }
  const double L = clip_leg_length(track);
  const double first = pose_step(track, 0, 1), last = pose_step(track, n - 2, n - 1);
  // The smaller of the two: a glitch at one end (assimp's CMU 01_03 jumps 0.61 m from its first frame to its
  // second) must not pass for a frame's motion.
  const double ends = std::min(first, last);
  const bool moves = ends * track.rate >= options.min_wrap_speed * L;
  const double wrap = pose_step(track, n - 1, 0);
  out.detected = moves && wrap <= options.max_wrap_ratio * ends;
  out.reason = fmt::format(
      "last frame to first {:.3f} m, first and last frame steps {:.3f} and {:.3f} m (a loop up to {:.1f} "
      "times the smaller, moving at {:.2f} m/s or more: {:.2f} m/s)",
      wrap, first, last, options.max_wrap_ratio, options.min_wrap_speed * L, ends * track.rate);
  if (!out.detected) {
    out.reason = "not a loop: " + out.reason;
    return out;
  }
  out.closing_duplicate = wrap < options.duplicate_ratio * ends;
  out.cycle_frames = out.closing_duplicate ? n - 1 : n;
  out.cycle_duration = out.cycle_frames / track.rate;

  // The root: in place when it comes back to where it started within the frame steps around the wrap
  // (the same test as the pose's, on the pelvis); else it travels and the next cycle starts where this one
  // would have gone one frame after its last (the root's mean frame step at the two ends), or at the
  // closing duplicate.
  const RootPose r0 = root_pose(track.frames.front());
  const RootPose r1 = root_pose(track.frames[1]);
  const RootPose rm = root_pose(track.frames[static_cast<std::size_t>(n - 2)]);
  const RootPose rn = root_pose(track.frames.back());
  const double root_ends = std::max((r1.p - r0.p).norm(), (rn.p - rm.p).norm());
  // (1 cm per leg length of slack: a root held still in place moves by rounding only.)
  if ((rn.p - r0.p).norm() <= std::max(options.max_wrap_ratio * root_ends, 0.01 * L)) {
    out.reason += "; the root comes back to its start (in place)";
    return out;
  }
  RootPose next = rn;  // the next cycle's first root
  if (!out.closing_duplicate) {
    // One frame's root motion in the root's own frame, averaged over the first and the last frame step.
    const Eigen::Vector2d step =
        0.5 * (rotation(-r0.heading) * (r1.p - r0.p) + rotation(-rm.heading) * (rn.p - rm.p));
    const double turn =
        0.5 * (wrapped_angle(r1.heading - r0.heading) + wrapped_angle(rn.heading - rm.heading));
    next.p = rn.p + rotation(rn.heading) * step;
    next.heading = rn.heading + turn;
  }
  out.turn = wrapped_angle(next.heading - r0.heading);
  out.shift = next.p - rotation(out.turn) * r0.p;
  out.reason += fmt::format("; the root travels {:.3f} m and turns {:.1f} deg a cycle",
                            (next.p - r0.p).norm(), out.turn * 180.0 / std::numbers::pi);
  return out;
}

LandmarkTrack repeated_loop(const LandmarkTrack& track, const ClipLoop& loop, int repeats) {
  if (!loop.detected || repeats <= 1) return track;
  LandmarkTrack out = track;
  const auto cycle = static_cast<std::ptrdiff_t>(loop.cycle_frames);
  out.frames.assign(track.frames.begin(), track.frames.begin() + cycle);
  out.frames.reserve(static_cast<std::size_t>(repeats * loop.cycle_frames + 1));
  double turn = 0.0;
  Eigen::Vector2d shift = Eigen::Vector2d::Zero();
  const Eigen::Matrix2d r = rotation(loop.turn);
  for (int c = 1; c < repeats; ++c) {
    // The motion of c cycles: that of c - 1 cycles followed by one more.
    turn += loop.turn;
    shift = r * shift + loop.shift;
    for (std::ptrdiff_t k = 0; k < cycle; ++k) {
      LandmarkFrame f = track.frames[static_cast<std::size_t>(k)];
      move_frame(f, turn, shift);
      out.frames.push_back(std::move(f));
    }
  }
  if (loop.closing_duplicate) {
    LandmarkFrame f = track.frames.back();
    move_frame(f, turn, shift);
    out.frames.push_back(std::move(f));
  }
  return out;
}

std::string LoopPlay::summary() const {
  if (!loop.detected) return "";
  std::string s = fmt::format("loop: {:.3f} s cycle ({} frames) played {} time{}", loop.cycle_duration,
                              loop.cycle_frames, repeats, repeats == 1 ? "" : "s");
  if (repeats_auto)
    s += fmt::format(" ({} step{} a cycle; auto: enough for {} steps)", cycle_steps,
                     cycle_steps == 1 ? "" : "s", min_steps);
  else
    s += " (retarget.loop_repeats)";
  return s;
}

PlayedClip play_clip(const LandmarkTrack& track, std::optional<int> requested_repeats,
                     const ClipLoopOptions& options, const std::string& key) {
  PlayedClip out;
  out.play.loop = detect_clip_loop(track, options);
  out.play.repeats_auto = !requested_repeats.has_value();
  out.play.min_steps = options.min_steps;
  if (requested_repeats && *requested_repeats < 1)
    throw InputError(input_error_message(
        track.source, "",
        fmt::format("{}: expected auto or a number of times from 1, found {}", key, *requested_repeats)));
  if (!out.play.loop.detected) {
    if (requested_repeats && *requested_repeats != 1)
      throw InputError(
          input_error_message(track.source, "",
                              fmt::format("{}: the clip is no loop and cannot be played {} times ({})", key,
                                          *requested_repeats, out.play.loop.reason)));
    out.in_place = detect_in_place_cycle(track);
    out.track = with_recovered_root_motion(track, out.in_place);
    return out;
  }
  // The steps of one cycle: the middle one of three played, where no clip end cuts a support phase.
  try {
    const LandmarkTrack three = repeated_loop(track, out.play.loop, 3);
    const InPlaceCycle cycle = detect_in_place_cycle(three);
    const ClipContacts contacts = detect_clip_contacts(with_recovered_root_motion(three, cycle));
    for (const ClipFootstep& s : contacts.footsteps)
      if (s.step && s.interval.first >= out.play.loop.cycle_frames &&
          s.interval.first < 2 * out.play.loop.cycle_frames)
        ++out.play.cycle_steps;
  } catch (const InputError&) {
    out.play.cycle_steps = 0;  // no feet: nothing to walk, the loop is played once
  }
  if (requested_repeats) {
    out.play.repeats = *requested_repeats;
  } else if (out.play.cycle_steps > 0) {
    out.play.repeats = (options.min_steps + out.play.cycle_steps - 1) / out.play.cycle_steps;
  }
  out.track = repeated_loop(track, out.play.loop, out.play.repeats);
  out.in_place = detect_in_place_cycle(out.track);
  out.track = with_recovered_root_motion(std::move(out.track), out.in_place);
  return out;
}

}  // namespace mimic::retarget
