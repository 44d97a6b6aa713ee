#include "mimic/terms/support_foot.hpp"

#include <stdexcept>

#include "mimic/dynamics/frame_derivatives.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/terms/dof_tree.hpp"
#include "mimic/terms/sample_data.hpp"

namespace mimic::terms {

namespace {

struct SupportFootData : TermData {
  SupportFootData(int rows, int nv) : TermData(rows, nv), dp_dq(3, nv), de_dq(3, nv) {}
  dynamics::Matrix3x dp_dq, de_dq;
};

}  // namespace

SupportFoot::SupportFoot(const model::Model& model, int frame, std::vector<spatial::SE3> references,
                         RowKind kind, double position_scale, double rotation_scale)
    : Term(model, 6, kind, kKinematics | kPlacementDerivatives),
      frame_(frame),
      references_(std::move(references)) {
  if (kind == RowKind::kInequality) throw std::invalid_argument("SupportFoot: residual or equality rows");
  scale_.head<3>().setConstant(position_scale);
  scale_.tail<3>().setConstant(rotation_scale);
  const int body = model.frames[frame].body;
  for (int dof = 0; dof < model.nv; ++dof) pattern_.q.col(dof).setConstant(moves(model, dof, body));
}

std::unique_ptr<TermData> SupportFoot::create_data() const {
  return std::make_unique<SupportFootData>(rows(), model_.nv);
}

void SupportFoot::calc(const SampleData& sample, TermData& data, bool partials) const {
  const spatial::SE3& reference = references_[static_cast<std::size_t>(sample.index)];
  if (!partials) {
    const spatial::SE3& pose = sample.data.oMf[frame_];
    data.value.head<3>() = pose.p - reference.p;
    data.value.tail<3>() = spatial::log3(reference.R.transpose() * pose.R);
    return;
  }
  auto& own = static_cast<SupportFootData&>(data);
  const spatial::Vec3 p = dynamics::frame_position_derivative(model_, sample.derivatives, frame_, own.dp_dq);
  const spatial::Vec3 e = dynamics::frame_orientation_error_derivative(model_, sample.derivatives, frame_,
                                                                       reference.R, own.de_dq);
  data.value.head<3>() = p - reference.p;
  data.value.tail<3>() = e;
  data.dq.topRows<3>() = own.dp_dq;
  data.dq.bottomRows<3>() = own.de_dq;
  data.dv.setZero();
  data.da.setZero();
}

std::string SupportFoot::describe(int row) const {
  return model_.frames[frame_].name + (row < 3 ? " position " : " rotation ") + "xyz"[row % 3];
}

}  // namespace mimic::terms
