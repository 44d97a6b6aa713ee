// Cross-check against an independent implementation: orocos-KDL's tree forward kinematics and tree
// Recursive Newton-Euler on models/hrp2.urdf with the base fixed. The KDL::Tree is built here from urdfdom's
// parse of the same file, the way kdl_parser does it, so that the test needs only orocos-KDL and urdfdom
// (Debian's kdl_parser is the ROS package, with catkin's build machinery) (segment = joint origin +
// joint about the parent-frame axis; inertia = mass, COM in the link frame, rotational inertia rotated into
// the link frame).
#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>

#include <cstdio>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <map>
#include <random>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "support/shared_data.hpp"

namespace mimic::dynamics {
namespace {

KDL::Vector to_kdl(const urdf::Vector3& v) { return KDL::Vector(v.x, v.y, v.z); }
KDL::Frame to_kdl(const urdf::Pose& p) {
  return KDL::Frame(KDL::Rotation::Quaternion(p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w),
                    to_kdl(p.position));
}

KDL::Joint to_kdl(const urdf::Joint& j) {
  const KDL::Frame origin = to_kdl(j.parent_to_joint_origin_transform);
  switch (j.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      return KDL::Joint(j.name, origin.p, origin.M * to_kdl(j.axis), KDL::Joint::RotAxis);
    case urdf::Joint::PRISMATIC:
      return KDL::Joint(j.name, origin.p, origin.M * to_kdl(j.axis), KDL::Joint::TransAxis);
    default:
      return KDL::Joint(j.name, KDL::Joint::None);
  }
}

KDL::RigidBodyInertia to_kdl(const urdf::InertialSharedPtr& in) {
  if (!in) return KDL::RigidBodyInertia::Zero();
  const KDL::Frame origin = to_kdl(in->origin);
  const KDL::RotationalInertia i_c(in->ixx, in->iyy, in->izz, in->ixy, in->ixz, in->iyz);
  const KDL::RigidBodyInertia rotated = origin.M * KDL::RigidBodyInertia(0, KDL::Vector::Zero(), i_c);
  return KDL::RigidBodyInertia(in->mass, origin.p, rotated.getRotationalInertia());
}

void add_children(const urdf::LinkConstSharedPtr& link, KDL::Tree& tree) {
  for (const auto& child : link->child_links) {
    const urdf::Joint& joint = *child->parent_joint;
    tree.addSegment(KDL::Segment(child->name, to_kdl(joint), to_kdl(joint.parent_to_joint_origin_transform),
                                 to_kdl(child->inertial)),
                    link->name);
    add_children(child, tree);
  }
}

class KdlCrossCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto urdf = urdf::parseURDFFile(test::hrp2_urdf().string());
    ASSERT_TRUE(urdf);
    tree = KDL::Tree(urdf->getRoot()->name);
    add_children(urdf->getRoot(), tree);
    ASSERT_EQ(tree.getNrOfJoints(), 30u);
    // KDL numbers the joints in its own order: map each to the model's joint index by name.
    kdl_index.assign(30, -1);
    for (const auto& [name, element] : tree.getSegments()) {
      const KDL::Joint& j = GetTreeElementSegment(element).getJoint();
      if (j.getType() != KDL::Joint::None)
        kdl_index[model.joint_index(j.getName())] = GetTreeElementQNr(element);
    }
  }

  KDL::JntArray to_kdl_joints(const Eigen::VectorXd& x) const {
    KDL::JntArray out(30);
    for (int j = 0; j < 30; ++j) out(kdl_index[j]) = x[j];
    return out;
  }

  model::Model model =
      model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2(model::RootType::kFixed));
  model::Data data{model};
  KDL::Tree tree;
  std::vector<int> kdl_index;
  std::mt19937 rng{42};
};

// FK of every moving body and every frame against KDL's tree FK. Both compose 30 rigid transformations in
// double: agreement to ~1e-15 per step; 1e-12 on positions (m) and rotation entries leaves 100x margin.
TEST_F(KdlCrossCheck, ForwardKinematics) {
  KDL::TreeFkSolverPos_recursive fk(tree);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::VectorXd q = model::random_configuration(model, rng);
    forward_kinematics(model, data, q);
    update_frame_placements(model, data);
    const KDL::JntArray kq = to_kdl_joints(q);
    for (size_t f = 0; f < model.frames.size(); ++f) {
      KDL::Frame kf;
      ASSERT_GE(fk.JntToCart(kq, kf, model.frames[f].name), 0) << model.frames[f].name;
      const spatial::SE3& m = data.oMf[f];
      for (int r = 0; r < 3; ++r) {
        EXPECT_NEAR(m.p[r], kf.p[r], 1e-12) << model.frames[f].name;
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(m.R(r, c), kf.M(r, c), 1e-12) << model.frames[f].name;
      }
    }
  }
}

// Fixed-base RNEA against KDL's TreeIdSolver_RNE on random states, with and without external wrenches.
// Relative error <= 1e-9 (issue 2): both are O(n) recursions in double, so the expected disagreement is
// ~1e-14 relative; the bound is the specification's.
TEST_F(KdlCrossCheck, InverseDynamics) {
  KDL::TreeIdSolver_RNE id(tree, KDL::Vector(0, 0, -9.81));
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  double worst = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::VectorXd q = model::random_configuration(model, rng);
    Eigen::VectorXd v(30), a(30);
    for (int j = 0; j < 30; ++j) {
      v[j] = model.velocity_limit[j] * unit(rng);  // up to the joint speed limits
      a[j] = 10.0 * unit(rng);
    }
    const bool with_wrenches = trial % 2 == 1;
    ExternalForces fext(model.nbodies, spatial::Force::Zero());
    KDL::WrenchMap kdl_fext;
    if (with_wrenches) {
      for (const char* link : {"RLEG_LINK5", "LLEG_LINK5", "RARM_LINK6", "HEAD_LINK1"}) {
        const spatial::Force w = spatial::Force::from_vector(100.0 * spatial::Vec6::Random());
        fext[model.body_index(link)] = w;
        // KDL: wrench on the segment, in the segment (tip) frame = the body frame, about its origin.
        kdl_fext[link] =
            KDL::Wrench(KDL::Vector(w.f.x(), w.f.y(), w.f.z()), KDL::Vector(w.tau.x(), w.tau.y(), w.tau.z()));
      }
    }
    KDL::JntArray kdl_tau(30);
    ASSERT_GE(id.CartToJnt(to_kdl_joints(q), to_kdl_joints(v), to_kdl_joints(a), kdl_fext, kdl_tau), 0);
    const Eigen::VectorXd tau = with_wrenches ? rnea(model, data, q, v, a, fext) : rnea(model, data, q, v, a);
    Eigen::VectorXd expected(30);
    for (int j = 0; j < 30; ++j) expected[j] = kdl_tau(kdl_index[j]);
    const double rel = (tau - expected).norm() / expected.norm();
    worst = std::max(worst, rel);
    EXPECT_LE(rel, 1e-9) << "trial " << trial;
  }
  char worst_text[32];
  std::snprintf(worst_text, sizeof worst_text, "%.3e", worst);
  RecordProperty("worst_relative_error", worst_text);
}

}  // namespace
}  // namespace mimic::dynamics
