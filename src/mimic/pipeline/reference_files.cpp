#include "mimic/pipeline/reference_files.hpp"

#include <algorithm>
#include <cmath>

#include "mimic/io/motion_conversion.hpp"
#include "mimic/pipeline/csv_motion.hpp"
#include "mimic/retarget/time_reparameterization.hpp"

namespace mimic::pipeline {

model::SampledMotion original_timing_motion(const model::Model& model,
                                            const KinematicRetargetResult& result) {
  const model::SampledMotion& ref = result.reference.motion;
  const retarget::RetimedSamples& timing = result.timing;
  const int n = timing.sample_count();
  model::SampledMotion original;
  original.times.resize(static_cast<std::size_t>(n));
  original.q.resize(model.nq, n);
  original.phases.assign(static_cast<std::size_t>(n), model::ContactPhase::kDoubleSupport);
  const Eigen::Index last = ref.size() - 1;
  for (int k = 0; k < n; ++k) {
    original.times[static_cast<std::size_t>(k)] = static_cast<double>(k) / timing.source_rate;
    // The fractional output sample of the re-timed time, clamped to the reference.
    const double s = std::clamp(timing.times[static_cast<std::size_t>(k)] * result.reference.rate, 0.0,
                                static_cast<double>(last));
    const auto i =
        std::min<Eigen::Index>(static_cast<Eigen::Index>(std::floor(s)), std::max<Eigen::Index>(last - 1, 0));
    original.q.col(k) = last == 0 ? Eigen::VectorXd(ref.q.col(0))
                                  : retarget::interpolate_configuration(model, ref.q.col(i), ref.q.col(i + 1),
                                                                        s - static_cast<double>(i));
  }
  model::differentiate(model, original);
  return original;
}

ReferenceFiles reference_files(const model::Model& model, const KinematicRetargetResult& result) {
  ReferenceFiles files;
  files.reference = io::motion_files(model, result.reference.motion, result.zmp.transpose());
  files.original = io::motion_files(model, original_timing_motion(model, result), Eigen::MatrixXd(0, 3));
  files.layout = result.pos_layout;
  return files;
}

void write_reference_files(const std::filesystem::path& pos_path, const ReferenceFiles& files, int columns) {
  const io::PosWriteOptions options = io::PosWriteOptions::with_columns(files.layout, columns);
  const std::filesystem::path base = motion_base_name(pos_path);
  io::write_motion(base.string() + ".reference", files.reference, options, files.layout);
  io::write_motion(base.string() + ".original", files.original, options, files.layout);
}

}  // namespace mimic::pipeline
