#include "mimic/terms/swing_sole_orientation.hpp"

#include <stdexcept>

#include "mimic/dynamics/frame_derivatives.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/terms/dof_tree.hpp"
#include "mimic/terms/sample_data.hpp"

namespace mimic::terms {

namespace {

struct SwingSoleOrientationData : TermData {
  SwingSoleOrientationData(int rows, int nv) : TermData(rows, nv), de_dq(3, nv) {}
  dynamics::Matrix3x de_dq;  // all three components; the rows are the first two
};

}  // namespace

SwingSoleOrientation::SwingSoleOrientation(const model::Model& model, int frame,
                                           std::vector<spatial::Mat3> planned, double max_tilt)
    : Term(model, 2, RowKind::kInequality, kKinematics | kPlacementDerivatives),
      frame_(frame),
      planned_(std::move(planned)) {
  if (!(max_tilt > 0.0)) throw std::invalid_argument("SwingSoleOrientation: max_tilt > 0");
  if (frame < 0 || frame >= static_cast<int>(model.frames.size()))
    throw std::invalid_argument("SwingSoleOrientation: frame out of range");
  lower_.setConstant(-max_tilt);
  upper_.setConstant(max_tilt);
  const int body = model.frames[frame].body;
  for (int dof = 0; dof < model.nv; ++dof) pattern_.q.col(dof).setConstant(moves(model, dof, body));
}

std::unique_ptr<TermData> SwingSoleOrientation::create_data() const {
  return std::make_unique<SwingSoleOrientationData>(rows(), model_.nv);
}

void SwingSoleOrientation::calc(const SampleData& sample, TermData& data, bool partials) const {
  const spatial::Mat3& planned = planned_[static_cast<std::size_t>(sample.index)];
  if (!partials) {
    data.value = spatial::log3(planned.transpose() * sample.data.oMf[frame_].R).head<2>();
    return;
  }
  auto& own = static_cast<SwingSoleOrientationData&>(data);
  const spatial::Vec3 e =
      dynamics::frame_orientation_error_derivative(model_, sample.derivatives, frame_, planned, own.de_dq);
  data.value = e.head<2>();
  data.dq = own.de_dq.topRows<2>();
  data.dv.setZero();
  data.da.setZero();
}

std::string SwingSoleOrientation::describe(int row) const {
  return model_.frames[frame_].name + (row == 0 ? " roll" : " pitch") + " from its planned orientation";
}

}  // namespace mimic::terms
