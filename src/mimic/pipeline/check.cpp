#include "mimic/pipeline/check.hpp"

#include "mimic/pipeline/read_motion.hpp"

namespace mimic::pipeline {

evaluation::Report check_motion_files(const Robot& robot, const std::string& motion,
                                      const std::vector<model::ContactInterval>& contacts,
                                      const evaluation::CheckOptions& options, std::optional<double> csv_rate,
                                      core::ThreadPool* pool) {
  return evaluation::check_motion(robot.model, robot.feet,
                                  read_sampled_motion(robot, motion, contacts, csv_rate), options, pool);
}

}  // namespace mimic::pipeline
