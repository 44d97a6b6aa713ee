// Data: every buffer sized once from the Model.
#include "mimic/model/data.hpp"

#include "mimic/model/model.hpp"

namespace mimic::model {

Data::Data(const Model& model)
    : liMi(model.nbodies),
      oMi(model.nbodies),
      v(model.nbodies),
      a(model.nbodies),
      a_gf(model.nbodies),
      f(model.nbodies),
      oMf(model.frames.size()),
      tau(Eigen::VectorXd::Zero(model.nv)),
      subtree_mass(model.nbodies, 0.0),
      subtree_com(model.nbodies, spatial::Vec3::Zero()),
      h_body(model.nbodies),
      J(Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv)),
      Jcom(Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, model.nv)) {}

}  // namespace mimic::model
