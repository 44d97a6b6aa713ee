#include "mimic/pipeline/read_motion.hpp"

#include "mimic/io/csv_motion.hpp"
#include "mimic/io/motion_conversion.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/pipeline/csv_motion.hpp"
#include "mimic/stability/base_reconstruction.hpp"

namespace mimic::pipeline {

model::SampledMotion sampled_motion(const model::Model& model, const stability::Feet& feet,
                                    const io::MotionFiles& files,
                                    const std::vector<model::ContactInterval>& intervals,
                                    const stability::ContactDetectionOptions& detection) {
  const Eigen::MatrixXd joints = io::joint_columns(model, files.pos, "motion .pos");
  model::SampledMotion motion;
  motion.times = files.pos.times;
  std::vector<spatial::SE3> base;
  if (files.waist) {
    base = io::base_poses(*files.waist);
  } else {
    const auto orientations = files.hip ? io::base_orientations(*files.hip) : std::vector<Eigen::Matrix3d>{};
    base = stability::reconstruct_base(model, feet, joints, files.hip ? &orientations : nullptr);
    motion.base_reconstructed = true;
  }
  motion.q.resize(model.nq, joints.cols());
  for (Eigen::Index k = 0; k < joints.cols(); ++k)
    motion.q.col(k) = model::configuration(model, base[static_cast<std::size_t>(k)], joints.col(k));
  model::differentiate(model, motion);
  motion.phases = intervals.empty()
                      ? stability::detect_contact_phases(model, feet, motion.times, motion.q, detection)
                      : model::phases_from_intervals(motion.times, intervals);
  return motion;
}

model::SampledMotion read_sampled_motion(const Robot& robot, const std::filesystem::path& path,
                                         const std::vector<model::ContactInterval>& intervals,
                                         std::optional<double> csv_rate) {
  if (io::is_csv_motion(path)) return read_csv_sampled_motion(robot, path, csv_rate, intervals);
  return sampled_motion(robot.model, robot.feet,
                        io::read_motion(path, io::PosColumns::kAuto, io::PosLayout::of(robot.description)),
                        intervals);
}

}  // namespace mimic::pipeline
