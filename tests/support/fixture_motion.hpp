// Reads a fixture of tests/data (X.pos with X.waist beside it) into a model::SampledMotion (q only, double
// support), for the geometry and evaluation tests. A reader of its own rather than io's: those modules
// cannot include io, and the fixtures are plain hrpsys rows (time, 30 joints; time, x y z roll pitch yaw).
#pragma once

#include <Eigen/Geometry>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mimic/model/base_pose.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"

namespace mimic::test {

inline std::vector<std::vector<double>> read_rows(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::vector<double> row;
    for (double x; fields >> x;) row.push_back(x);
    if (!row.empty()) rows.push_back(row);
  }
  return rows;
}

// base = "<source>/tests/data/boxing_hand_in_head"; .pos columns are the model's joint order.
inline model::SampledMotion read_fixture(const model::Model& model, const std::string& base) {
  const auto pos = read_rows(base + ".pos");
  const auto waist = read_rows(base + ".waist");
  if (pos.size() != waist.size()) throw std::runtime_error(base + ": .pos and .waist differ in length");
  model::SampledMotion motion;
  const auto n = static_cast<Eigen::Index>(pos.size());
  motion.q = Eigen::MatrixXd::Zero(model.nq, n);
  motion.v = Eigen::MatrixXd::Zero(model.nv, n);
  motion.a = Eigen::MatrixXd::Zero(model.nv, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto& row = pos[static_cast<size_t>(k)];
    const auto& w = waist[static_cast<size_t>(k)];
    motion.times.push_back(row[0]);
    for (int j = 0; j < model.nj; ++j) motion.q(model.idx_q(j), k) = row[static_cast<size_t>(j + 1)];
    const Eigen::Matrix3d R = (Eigen::AngleAxisd(w[6], Eigen::Vector3d::UnitZ()) *
                               Eigen::AngleAxisd(w[5], Eigen::Vector3d::UnitY()) *
                               Eigen::AngleAxisd(w[4], Eigen::Vector3d::UnitX()))
                                  .toRotationMatrix();
    model::set_base_pose(model, motion.q.col(k), spatial::SE3(R, Eigen::Vector3d(w[1], w[2], w[3])));
  }
  motion.phases.assign(pos.size(), model::ContactPhase::kDoubleSupport);
  return motion;
}

inline std::string fixture_path(const std::string& name) {
  return std::string(MIMIC_SOURCE_DIR) + "/tests/data/" + name;
}

}  // namespace mimic::test
