#include "mimic/pipeline/reference_files.hpp"

#include <algorithm>
#include <cmath>

namespace mimic::pipeline {
namespace {

// Row-wise linear interpolation of uniformly sampled rows at fractional index s (clamped to the ends).
Eigen::RowVectorXd interpolate_rows(const retarget::SampleMatrix& samples, double s) {
  const Eigen::Index last = samples.rows() - 1;
  const double clamped = std::clamp(s, 0.0, static_cast<double>(last));
  const auto i = std::min<Eigen::Index>(static_cast<Eigen::Index>(std::floor(clamped)),
                                        std::max<Eigen::Index>(last - 1, 0));
  if (last == 0) return samples.row(0);
  const double w = clamped - static_cast<double>(i);
  return (1.0 - w) * samples.row(i) + w * samples.row(i + 1);
}

}  // namespace

io::MotionFiles original_timing_files(const KinematicRetargetResult& result) {
  const auto& ref = result.reference;
  const auto& timing = result.timing;
  const int n = timing.sample_count();
  io::MotionFiles files;
  files.pos.times.resize(static_cast<std::size_t>(n));
  files.pos.angles.resize(n, ref.joints.cols());
  io::WaistSequence waist;
  waist.position.resize(n, 3);
  waist.rpy.resize(n, 3);
  for (int k = 0; k < n; ++k) {
    const double s = timing.times[static_cast<std::size_t>(k)] * ref.rate;
    files.pos.times[static_cast<std::size_t>(k)] = static_cast<double>(k) / timing.source_rate;
    files.pos.angles.row(k) = interpolate_rows(ref.joints, s);
    const Eigen::RowVectorXd pose = interpolate_rows(ref.waist, s);
    waist.position.row(k) = pose.head<3>();
    waist.rpy.row(k) = pose.tail<3>();
  }
  waist.times = files.pos.times;
  files.waist = std::move(waist);
  return files;
}

void write_reference_files(const std::filesystem::path& pos_path, const KinematicRetargetResult& result,
                           int columns) {
  const io::PosWriteOptions options = io::PosWriteOptions::with_columns(result.pos_layout, columns);
  const std::filesystem::path base = io::motion_base(pos_path);
  io::write_motion(base.string() + ".reference", motion_files(result), options, result.pos_layout);
  io::write_motion(base.string() + ".original", original_timing_files(result), options, result.pos_layout);
}

}  // namespace mimic::pipeline
