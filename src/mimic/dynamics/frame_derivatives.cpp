// Frame derivatives from the world-frame forward pass (notation of derivative_data.hpp).
//
// Let X be a world-coordinate quantity of the frame's body i — its twist ov_i or its spatial acceleration
// oa_i = oa_gf_i + [g; 0] — and x = fXo X its kLocal value (fXo = (oMi M_frame)^{-1}). A tangent step dq_c
// of a supporting dof moves the frame rigidly with exp(S_c dq_c), so d(fXo)/dq_c = -fXo (S_c ×) and
//   dx/dq_c = fXo (dX/dq_c - S_c × X) = fXo Y_c
// keeps only the non-transport part Y_c of dX/dq_c (derivative_data.hpp):
//   velocity:      Y_c = dVdq_c
//   acceleration:  Y_c = dAdq_c + [g × S_c.w; 0] + dVdq_c × ov_i
// (dAdq is stored with the gravity field, oa_gf_lambda × S_c; [g × S_c.w; 0] = [g; 0] × S_c removes it).
// With respect to v and a the frame does not move: dx/dv_c = fXo dX/dv_c with dov_i/dv_c = S_c and
// doa_i/dv_c = dAdv_c + S_c × ov_i; dx/da_c = fXo S_c.
// The other ReferenceFrames re-express x: kLocalWorldAligned = the frame's rotation R applied to both
// parts (equivalently X shifted to the frame origin), kWorld = X itself. Their q-derivatives gain the
// rotation of those axes: [S_c.w × x.v; S_c.w × x.w] (LWA) and S_c × X (world).
#include "mimic/dynamics/frame_derivatives.hpp"

#include <stdexcept>

#include "mimic/dynamics/derivatives_detail.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::dynamics {

namespace {

using detail::motion_row;
using spatial::Motion;
using spatial::SE3;
using spatial::Vec3;

// A world-coordinate motion (at the world origin) expressed in rf for the frame placed at oMf.
Motion express(const SE3& oMf, const Motion& Y, ReferenceFrame rf) {
  switch (rf) {
    case ReferenceFrame::kLocal:
      return oMf.act_inv(Y);
    case ReferenceFrame::kLocalWorldAligned:
      return Motion(Y.v + Y.w.cross(oMf.p), Y.w);
    case ReferenceFrame::kWorld:
      break;
  }
  return Y;
}

// The q-derivative of the rf axes' own motion, for the value x (in rf) of the world quantity X.
Motion axes_rotation(const Motion& S, const Motion& x, const Motion& X, ReferenceFrame rf) {
  switch (rf) {
    case ReferenceFrame::kLocal:
      return Motion::Zero();
    case ReferenceFrame::kLocalWorldAligned:
      return Motion(S.w.cross(x.v), S.w.cross(x.w));
    case ReferenceFrame::kWorld:
      break;
  }
  return S.cross(X);
}

// The last dof supporting `body` (its own joint, or the free-flyer's last dof for the root); the others
// follow through data.parent_dof. -1 when no dof moves the body (root of a fixed base).
int last_dof(const Model& model, int body) {
  if (body > 0) return model.idx_v(model::Model::joint_of_body(body));
  return model.has_free_flyer() ? 5 : -1;
}

template <typename Matrix>
void set_col(Matrix& M, int c, const Motion& m) {
  M.col(c).template head<3>() = m.v;
  M.col(c).template tail<3>() = m.w;
}

void check(const Model& model, const DerivativeData& data, int frame, Eigen::Index cols) {
  if (data.nv != model.nv || frame < 0 || frame >= static_cast<int>(model.frames.size()) || cols != model.nv)
    throw std::invalid_argument(
        "frame derivatives: frame index, output size or DerivativeData do not match the model");
}

}  // namespace

SE3 frame_placement(const Model& model, const DerivativeData& data, int frame) {
  const model::Frame& f = model.frames[frame];
  return data.oMi[f.body] * f.placement;
}

Vec3 frame_position_derivative(const Model& model, const DerivativeData& data, int frame,
                               Eigen::Ref<Matrix3x> dp_dq) {
  check(model, data, frame, dp_dq.cols());
  const model::Frame& f = model.frames[frame];
  const Vec3 p = frame_placement(model, data, frame).p;
  dp_dq.setZero();
  for (int c = last_dof(model, f.body); c >= 0; c = data.parent_dof[c]) {
    const Motion S = motion_row(data.J, c);
    dp_dq.col(c) = S.v + S.w.cross(p);
  }
  return p;
}

Vec3 frame_orientation_error_derivative(const Model& model, const DerivativeData& data, int frame,
                                        const spatial::Mat3& R_ref, Eigen::Ref<Matrix3x> de_dq) {
  check(model, data, frame, de_dq.cols());
  const model::Frame& f = model.frames[frame];
  const spatial::Mat3 R = frame_placement(model, data, frame).R;
  const Vec3 e = spatial::log3(R_ref.transpose() * R);
  const spatial::Mat3 A = spatial::jlog3(e) * R.transpose();
  de_dq.setZero();
  for (int c = last_dof(model, f.body); c >= 0; c = data.parent_dof[c])
    de_dq.col(c).noalias() = A * data.J.row(c).tail<3>().transpose();
  return e;
}

Motion frame_velocity_derivatives(const Model& model, const DerivativeData& data, int frame,
                                  ReferenceFrame rf, Eigen::Ref<Matrix6x> dv_dq, Eigen::Ref<Matrix6x> dv_dv) {
  check(model, data, frame, dv_dq.cols());
  check(model, data, frame, dv_dv.cols());
  const int body = model.frames[frame].body;
  const SE3 oMf = frame_placement(model, data, frame);
  const Motion& X = data.ov[body];
  const Motion x = express(oMf, X, rf);
  dv_dq.setZero();
  dv_dv.setZero();
  for (int c = last_dof(model, body); c >= 0; c = data.parent_dof[c]) {
    const Motion S = motion_row(data.J, c);
    set_col(dv_dq, c, express(oMf, motion_row(data.dVdq, c), rf) + axes_rotation(S, x, X, rf));
    set_col(dv_dv, c, express(oMf, S, rf));
  }
  return x;
}

Motion frame_acceleration_derivatives(const Model& model, const DerivativeData& data, int frame,
                                      ReferenceFrame rf, Eigen::Ref<Matrix6x> da_dq,
                                      Eigen::Ref<Matrix6x> da_dv, Eigen::Ref<Matrix6x> da_da) {
  check(model, data, frame, da_dq.cols());
  check(model, data, frame, da_dv.cols());
  check(model, data, frame, da_da.cols());
  const int body = model.frames[frame].body;
  const SE3 oMf = frame_placement(model, data, frame);
  const Motion g(model.gravity, Vec3::Zero());
  const Motion& ov = data.ov[body];
  const Motion X = data.oa_gf[body] + g;
  const Motion x = express(oMf, X, rf);
  da_dq.setZero();
  da_dv.setZero();
  da_da.setZero();
  for (int c = last_dof(model, body); c >= 0; c = data.parent_dof[c]) {
    const Motion S = motion_row(data.J, c);
    const Motion Yq = motion_row(data.dAdq, c) + g.cross(S) + motion_row(data.dVdq, c).cross(ov);
    set_col(da_dq, c, express(oMf, Yq, rf) + axes_rotation(S, x, X, rf));
    set_col(da_dv, c, express(oMf, motion_row(data.dAdv, c) + S.cross(ov), rf));
    set_col(da_da, c, express(oMf, S, rf));
  }
  return x;
}

}  // namespace mimic::dynamics
