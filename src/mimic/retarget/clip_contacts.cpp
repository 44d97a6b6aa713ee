#include "mimic/retarget/clip_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "mimic/core/error.hpp"

namespace mimic::retarget {

namespace {

// Runs of `true` in a per-frame flag, as [first, last] frame pairs.
std::vector<std::pair<int, int>> runs(const std::vector<bool>& flag) {
  std::vector<std::pair<int, int>> out;
  const int n = static_cast<int>(flag.size());
  for (int k = 0; k < n;) {
    if (!flag[static_cast<std::size_t>(k)]) {
      ++k;
      continue;
    }
    int last = k;
    while (last + 1 < n && flag[static_cast<std::size_t>(last + 1)]) ++last;
    out.emplace_back(k, last);
    k = last + 1;
  }
  return out;
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + k, values.end());
  return values[static_cast<std::size_t>(k)];
}

int frames_of(double seconds, double rate) {
  return std::max(1, static_cast<int>(std::lround(seconds * rate)));
}

// One foot landmark over the clip: height above its own floor level and speed, per frame.
struct PointSignal {
  std::vector<double> height, speed;
  double floor = 0.0;
};

PointSignal point_signal(const LandmarkTrack& track, Landmark l, double quantile_q, int half_window) {
  const int n = track.frame_count();
  PointSignal s;
  std::vector<double> z(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    z[static_cast<std::size_t>(k)] = track.frames[static_cast<std::size_t>(k)][l].z();
  s.floor = quantile(z, quantile_q);
  s.height.resize(static_cast<std::size_t>(n));
  s.speed.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    s.height[static_cast<std::size_t>(k)] = z[static_cast<std::size_t>(k)] - s.floor;
    const int k0 = std::max(k - half_window, 0), k1 = std::min(k + half_window, n - 1);
    s.speed[static_cast<std::size_t>(k)] =
        k1 > k0
            ? (track.frames[static_cast<std::size_t>(k1)][l] - track.frames[static_cast<std::size_t>(k0)][l])
                      .norm() *
                  track.rate / (k1 - k0)
            : 0.0;
  }
  return s;
}

// The hysteresis of one landmark (see ClipContactOptions): planted from the frame where it is low and slow
// until the frame where it is high or fast.
std::vector<bool> planted(const PointSignal& s, double enter_height, double leave_height, double enter_speed,
                          double leave_speed) {
  std::vector<bool> out(s.height.size(), false);
  bool on = false;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (on) {
      on = s.height[k] <= leave_height && s.speed[k] <= leave_speed;
    } else {
      on = s.height[k] <= enter_height && s.speed[k] <= enter_speed;
    }
    out[k] = on;
  }
  return out;
}

// Minimum phase lengths: gaps shorter than min_gap between two runs are closed, then runs shorter than
// min_run are removed.
void enforce_min_lengths(std::vector<bool>& flag, int min_gap, int min_run) {
  const auto r = runs(flag);
  for (std::size_t i = 1; i < r.size(); ++i) {
    if (r[i].first - r[i - 1].second - 1 < min_gap)
      for (int k = r[i - 1].second + 1; k < r[i].first; ++k) flag[static_cast<std::size_t>(k)] = true;
  }
  for (const auto& [first, last] : runs(flag)) {
    if (last - first + 1 < min_run)
      for (int k = first; k <= last; ++k) flag[static_cast<std::size_t>(k)] = false;
  }
}

double median(std::vector<double> values) { return quantile(std::move(values), 0.5); }

// The landmarks of one foot.
struct FootLandmarks {
  Landmark ankle, toe, heel;
};

constexpr std::array<FootLandmarks, 2> kFeet = {
    FootLandmarks{Landmark::kRightAnkle, Landmark::kRightToe, Landmark::kRightHeel},
    FootLandmarks{Landmark::kLeftAnkle, Landmark::kLeftToe, Landmark::kLeftHeel}};

ClipInterval interval(int first, int last, double rate) { return {first, last, first / rate, last / rate}; }

// The pose of one foot during one support phase (see ClipFootstep).
void foot_pose(const LandmarkTrack& track, const FootLandmarks& foot, const std::vector<bool>& ankle_planted,
               ClipFootstep& step) {
  const Landmark ankle = foot.ankle;
  // The foot's long axis: heel to toe where the markers give both (see Landmark::kRightHeel), else the
  // ankle to the toe, else the pelvis' heading.
  const Landmark back = track.has(foot.heel) ? foot.heel : ankle;
  std::vector<int> frames;
  for (int k = step.interval.first; k <= step.interval.last; ++k)
    if (ankle_planted[static_cast<std::size_t>(k)]) frames.push_back(k);
  if (frames.empty())
    for (int k = step.interval.first; k <= step.interval.last; ++k) frames.push_back(k);
  std::vector<double> x, y;
  Eigen::Vector2d direction = Eigen::Vector2d::Zero();
  for (int k : frames) {
    const LandmarkFrame& f = track.frames[static_cast<std::size_t>(k)];
    x.push_back(f[ankle].x());
    y.push_back(f[ankle].y());
    // Unit vectors summed: the mean direction, which has no wrap-around at +-pi.
    const Eigen::Vector2d forward = track.has(foot.toe) ? Eigen::Vector2d((f[foot.toe] - f[back]).head<2>())
                                                        : Eigen::Vector2d(f.pelvis_rotation.col(0).head<2>());
    if (forward.norm() > 1e-9) direction += forward.normalized();
  }
  step.position = {median(std::move(x)), median(std::move(y))};
  step.heading = std::atan2(direction.y(), direction.x());
}

}  // namespace

double clip_leg_length(const LandmarkTrack& track) {
  std::vector<double> lengths;
  const bool knees = track.has(Landmark::kRightKnee) && track.has(Landmark::kLeftKnee);
  for (const LandmarkFrame& f : track.frames) {
    for (const auto& [hip, knee, ankle] :
         {std::array{Landmark::kRightHip, Landmark::kRightKnee, Landmark::kRightAnkle},
          std::array{Landmark::kLeftHip, Landmark::kLeftKnee, Landmark::kLeftAnkle}}) {
      const double length =
          knees ? (f[hip] - f[knee]).norm() + (f[knee] - f[ankle]).norm() : (f[hip] - f[ankle]).norm();
      if (std::isfinite(length)) lengths.push_back(length);
    }
  }
  return median(std::move(lengths));
}

int ClipContacts::step_count() const {
  return static_cast<int>(
      std::count_if(footsteps.begin(), footsteps.end(), [](const auto& s) { return s.step; }));
}

double ClipContacts::cadence() const {
  double first = 0.0, last = 0.0;
  int n = 0;
  for (const auto& s : footsteps) {
    if (!s.step) continue;
    if (n == 0) first = s.interval.start;
    last = s.interval.start;
    ++n;
  }
  return n >= 2 && last > first ? 60.0 * (n - 1) / (last - first) : 0.0;
}

ClipContacts detect_clip_contacts(const LandmarkTrack& track, const ClipContactOptions& options) {
  std::string missing;
  for (Landmark l : {Landmark::kPelvis, Landmark::kRightHip, Landmark::kLeftHip, Landmark::kRightAnkle,
                     Landmark::kLeftAnkle})
    if (!track.has(l)) missing += (missing.empty() ? "" : ", ") + std::string(to_string(l));
  if (!missing.empty()) {
    throw InputError(input_error_message(
        track.source, "",
        "contacts need the feet: the landmarks (preset '" + track.preset + "') have no " + missing));
  }
  if (track.rate <= 0.0 || track.frame_count() < 2)
    throw InputError(input_error_message(track.source, "", "contacts need at least two frames and a rate"));

  ClipContacts out;
  out.rate = track.rate;
  out.frame_count = track.frame_count();
  out.leg_length = clip_leg_length(track);
  const double L = out.leg_length;
  const int half_window = frames_of(options.speed_half_window, track.rate);
  const int min_swing = frames_of(options.min_swing, track.rate);
  const int min_support = frames_of(options.min_support, track.rate);

  // Contact is read from the ankle and the toe only: the heel, where a marker set has it, sits on the
  // floor only from heel strike to heel rise, which the ankle already covers.
  const std::array<std::array<Landmark, 2>, 2> points = {std::array{kFeet[0].ankle, kFeet[0].toe},
                                                         std::array{kFeet[1].ankle, kFeet[1].toe}};
  std::array<std::vector<bool>, 2> ankle_planted;
  out.floor = std::numeric_limits<double>::infinity();
  std::vector<bool> near_floor(static_cast<std::size_t>(out.frame_count), false);
  for (int foot = 0; foot < 2; ++foot) {
    std::vector<bool>& down = out.down[static_cast<std::size_t>(foot)];
    down.assign(static_cast<std::size_t>(out.frame_count), false);
    for (int p = 0; p < 2; ++p) {
      const Landmark l = points[static_cast<std::size_t>(foot)][static_cast<std::size_t>(p)];
      if (!track.has(l)) continue;
      const PointSignal s = point_signal(track, l, options.floor_quantile, half_window);
      out.floor = std::min(out.floor, s.floor);
      for (std::size_t k = 0; k < near_floor.size(); ++k)
        near_floor[k] = near_floor[k] || s.height[k] <= options.enter_height * L;
      std::vector<bool> on = planted(s, options.enter_height * L, options.leave_height * L,
                                     options.enter_speed * L, options.leave_speed * L);
      for (std::size_t k = 0; k < on.size(); ++k) down[k] = down[k] || on[k];
      if (p == 0) ankle_planted[static_cast<std::size_t>(foot)] = std::move(on);
    }
    enforce_min_lengths(down, min_swing, min_support);
  }

  // Support phases and their poses; a step is a touchdown away from where that foot stood before.
  for (int foot = 0; foot < 2; ++foot) {
    bool first = true;
    Eigen::Vector2d previous = Eigen::Vector2d::Zero();
    for (const auto& [a, b] : runs(out.down[static_cast<std::size_t>(foot)])) {
      ClipFootstep step;
      step.foot = static_cast<ClipFoot>(foot);
      step.interval = interval(a, b, track.rate);
      foot_pose(track, kFeet[static_cast<std::size_t>(foot)], ankle_planted[static_cast<std::size_t>(foot)],
                step);
      step.stride = first ? 0.0 : (step.position - previous).norm();
      // The clip's first support of a foot is a step when it starts after the clip does: that foot was in
      // the air before.
      step.step = first ? a > 0 : step.stride >= options.min_step_distance * L;
      previous = step.position;
      first = false;
      out.footsteps.push_back(step);
    }
  }
  std::stable_sort(out.footsteps.begin(), out.footsteps.end(),
                   [](const auto& p, const auto& q) { return p.interval.first < q.interval.first; });

  // In flight, no foot is down and no foot landmark is near the floor either: a foot that slides or
  // pivots on the floor (a boxer turning into his stance) is not planted, but it still carries weight.
  std::vector<bool> airborne(static_cast<std::size_t>(out.frame_count));
  for (std::size_t k = 0; k < airborne.size(); ++k)
    airborne[k] = !out.down[0][k] && !out.down[1][k] && !near_floor[k];
  for (const auto& [a, b] : runs(airborne))
    if (b - a + 1 >= min_swing) out.flights.push_back(interval(a, b, track.rate));

  // Pelvis path: centred moving average, narrowed symmetrically at the clip's ends.
  const int half_path = frames_of(options.path_window / 2.0, track.rate);
  const int n = out.frame_count;
  out.pelvis_path.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    const int h = std::min({half_path, k, n - 1 - k});
    Eigen::Vector2d sum = Eigen::Vector2d::Zero();
    for (int j = k - h; j <= k + h; ++j)
      sum += track.frames[static_cast<std::size_t>(j)][Landmark::kPelvis].head<2>();
    out.pelvis_path[static_cast<std::size_t>(k)] = sum / (2 * h + 1);
  }
  for (int k = 1; k < n; ++k)
    out.travel +=
        (out.pelvis_path[static_cast<std::size_t>(k)] - out.pelvis_path[static_cast<std::size_t>(k - 1)])
            .norm();
  out.displacement = (out.pelvis_path.back() - out.pelvis_path.front()).norm();
  out.stands_still = out.step_count() == 0 && out.travel < options.still_travel * L;
  return out;
}

}  // namespace mimic::retarget
