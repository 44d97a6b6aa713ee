#include "mimic/terms/frame_imitation.hpp"

#include <stdexcept>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/terms/dof_tree.hpp"
#include "mimic/terms/sample_data.hpp"

namespace mimic::terms {

namespace {

struct FrameImitationData : TermData {
  FrameImitationData(int rows, int nv) : TermData(rows, nv), jacobian(6, nv) {}
  Eigen::Matrix<double, 6, Eigen::Dynamic> jacobian;
};

}  // namespace

FrameImitation::FrameImitation(const model::Model& model, std::vector<int> frames, Eigen::MatrixXd targets)
    : Term(model, 3 * static_cast<int>(frames.size()), RowKind::kResidual, kKinematics),
      frames_(std::move(frames)),
      targets_(std::move(targets)) {
  if (targets_.rows() != rows()) throw std::invalid_argument("FrameImitation: three target rows per frame");
  for (int row = 0; row < rows(); ++row) {
    const int body = model.frames[frames_[row / 3]].body;
    for (int dof = 0; dof < model.nv; ++dof) pattern_.q(row, dof) = moves(model, dof, body);
  }
}

std::unique_ptr<TermData> FrameImitation::create_data() const {
  return std::make_unique<FrameImitationData>(rows(), model_.nv);
}

void FrameImitation::calc(const SampleData& sample, TermData& data, bool partials) const {
  auto& own = static_cast<FrameImitationData&>(data);
  // dv and da stay the zeros of TermData's construction (only calc writes to the data); dq's rows are all
  // overwritten below.
  for (std::size_t f = 0; f < frames_.size(); ++f) {
    const int row = 3 * static_cast<int>(f);
    const spatial::Vec3& position = sample.data.oMf[frames_[f]].p;
    for (int c = 0; c < 3; ++c) own.value[row + c] = position[c] - targets_(row + c, sample.index);
    if (!partials) continue;
    dynamics::frame_jacobian(model_, sample.data, frames_[f], dynamics::ReferenceFrame::kLocalWorldAligned,
                             own.jacobian);
    own.dq.middleRows<3>(row) = own.jacobian.topRows<3>();
  }
}

std::string FrameImitation::describe(int row) const {
  return model_.frames[frames_[row / 3]].name + " position " + "xyz"[row % 3];
}

}  // namespace mimic::terms
