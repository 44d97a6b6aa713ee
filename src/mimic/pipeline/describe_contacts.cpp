// `mimic info CLIP --contacts`: the support phases of each foot read from the clip, the footsteps, the
// flight phases and the pelvis path (retarget/clip_contacts).
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "mimic/mocap/load.hpp"
#include "mimic/pipeline/describe.hpp"
#include "mimic/retarget/clip_contacts.hpp"
#include "mimic/retarget/clip_loop.hpp"
#include "mimic/retarget/landmark_track.hpp"

namespace mimic::pipeline {

namespace {

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

// x as printed with `decimals` decimals, without the sign of a value that prints as zero ("-0.000"
// reads as a measurement below zero).
double shown(double x, int decimals) { return std::abs(x) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : x; }

// The landmarks one foot is read from; the heel is named when it gives the heading (retarget::ClipFootstep).
std::string foot_points(const retarget::LandmarkTrack& track, retarget::Landmark ankle,
                        retarget::Landmark toe, retarget::Landmark heel) {
  std::string s(retarget::to_string(ankle));
  if (track.has(toe)) {
    s += " + " + std::string(retarget::to_string(toe));
    if (track.has(heel)) s += " + " + std::string(retarget::to_string(heel));
  }
  return s;
}

}  // namespace

void describe_contacts(const std::string& path, std::string_view units, std::string_view up,
                       std::string_view preset, std::ostream& out, std::string_view units_option,
                       std::string_view up_option) {
  const mocap::Clip clip = mocap::load_clip(path, clip_load_options(units, up, units_option, up_option));
  const retarget::LandmarkTrack clip_track = retarget::extract_landmarks(clip, preset);
  // A loop is played as the retarget plays it by default (retarget/clip_loop), and an in-place walk cycle
  // is read as the walk it stands for: its root motion recovered from the stance feet
  // (retarget/in_place_cycle).
  const retarget::PlayedClip played = retarget::play_clip(clip_track);
  const retarget::InPlaceCycle& cycle = played.in_place;
  const retarget::LandmarkTrack& track = played.track;
  const retarget::ClipContacts c = retarget::detect_clip_contacts(track);
  using retarget::Landmark;

  out << "file: " << path << "\n";
  out << "landmarks: preset " << track.preset << "; feet from "
      << foot_points(track, Landmark::kRightAnkle, Landmark::kRightToe, Landmark::kRightHeel) << ", "
      << foot_points(track, Landmark::kLeftAnkle, Landmark::kLeftToe, Landmark::kLeftHeel) << "\n";
  out << format("frames: %d at %.3f Hz (%.3f s); leg length %.3f m; floor at z = %.3f m\n", c.frame_count,
                c.rate, c.frame_count / c.rate, c.leg_length, shown(c.floor, 3));
  // A loop: how it is played, and why it is a loop; the phases below are those of the clip as played.
  if (played.play.loop.detected)
    out << played.play.summary() << "; the phases below are read on the loop as played\n"
        << "  " << played.play.loop.reason << "\n";
  const bool heels = track.has(Landmark::kRightHeel) && track.has(Landmark::kLeftHeel) &&
                     track.has(Landmark::kRightToe) && track.has(Landmark::kLeftToe);
  out << "support phases (time order; position = the ankle on the floor, heading of the "
      << (heels ? "heel" : "ankle") << "-to-toe line):\n";
  out << "  foot   from [s]   to [s]    x [m]    y [m]  heading [deg]  stride [m]\n";
  std::array<bool, 2> seen{};  // a foot's first support phase has no stride
  for (const auto& s : c.footsteps) {
    const char* kind = s.step ? "step" : (s.interval.first == 0 ? "stance (from the start)" : "in place");
    bool& first = seen[static_cast<std::size_t>(s.foot)];
    const std::string stride = first ? format("%11.3f", s.stride) : format("%11s", "-");
    first = true;
    out << format("  %-5s %8.3f %8.3f %8.3f %8.3f %14.1f %s  %s\n",
                  s.foot == retarget::ClipFoot::kRight ? "right" : "left", s.interval.start, s.interval.end,
                  shown(s.position.x(), 3), shown(s.position.y(), 3),
                  shown(s.heading * 180.0 / std::numbers::pi, 1), stride.c_str(), kind);
  }
  if (c.flights.empty()) {
    out << "flight phases: none\n";
  } else {
    out << "flight phases: " << c.flights.size() << " (both feet off the floor: running or jumping)\n";
    for (const auto& f : c.flights) out << format("  %8.3f %8.3f  (%.3f s)\n", f.start, f.end, f.duration());
  }
  const Eigen::Vector2d& a = c.pelvis_path.front();
  const Eigen::Vector2d& b = c.pelvis_path.back();
  out << format("pelvis path: (%.3f, %.3f) -> (%.3f, %.3f) m, travel %.3f m, displacement %.3f m\n",
                shown(a.x(), 3), shown(a.y(), 3), shown(b.x(), 3), shown(b.y(), 3), c.travel, c.displacement);
  out << format("steps: %d", c.step_count());
  if (c.cadence() > 0.0) out << format(", cadence %.1f steps/min", c.cadence());
  out << "\n";
  if (cycle.detected)
    out << format("in-place cycle: root motion recovered from the stance feet, travel %.3f m (", cycle.travel)
        << cycle.reason << ")\n";
  if (c.stands_still) {
    out << format("the clip stands still: no step, pelvis travel %.3f m\n", c.travel);
  } else {
    out << format("the clip travels: %d step(s), pelvis travel %.3f m\n", c.step_count(), c.travel);
  }
  if (!c.flights.empty())
    out << "the clip has " << c.flights.size()
        << " flight phase(s): both feet leave the floor (running or jumping)\n";
}

}  // namespace mimic::pipeline
