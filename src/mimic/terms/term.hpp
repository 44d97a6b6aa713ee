// Sample-local terms: the building blocks of the optimisation problems (issue 12, decision 5), in the
// spirit of Crocoddyl's residual / cost models and Pinocchio's Model / Data split.
//
// A Term is one block of rows evaluated at ONE time sample from the robot's state there. It states once,
// at construction:
//  * rows()      how many rows it writes (fixed: a row that does not apply at some sample is the caller's
//                business, e.g. one TermSum per contact phase, as Crocoddyl keeps one model per node);
//  * kind()      kResidual   (least squares: the problem minimises 1/2 |weight * scale * u|^2),
//                kEquality   (scale * u = 0),
//                kInequality (lower <= u <= upper, lower < 0 < upper, at least one of them finite; the
//                             problems write each finite bound b as the normalised row g = u / b - 1 <= 0,
//                             so that the solvers' feasibility tolerance is a fraction of the limit, and an
//                             infinite bound as no row: a one-sided row, e.g. distance >= d, costs one);
//  * scale()     a constant per-row factor (units: 1 / the row's unit, e.g. 1e3 / m for a position
//                equality in millimetres; 1 for inequality rows, whose normalisation is their bound);
//  * lower(), upper()  the bounds of inequality rows, in the row's units;
//  * needs()     what the sample must provide (Need below); SampleData::fill computes it once per sample
//                for all the terms of a sum;
//  * pattern()   which partials may be non-zero (rows x nv, separately for q, v, a). Entries outside it
//                are exactly 0 in every calc.
//
// Values and partials. calc() writes the term's raw row values u in the row's natural unit (rad, m,
// N m, ...) and, when asked for partials, du/dq, du/dv, du/da (rows x nv): q in the tangent space of the
// configuration (model::integrate convention, base twist in the base frame), v and a the model's velocity
// and acceleration vectors. The scale and the TermSum weight are NOT applied by calc: the consumer applies
// weight * scale, so that it can do so before or after mapping the partials onto its own variables (the
// two problems of today do it in different places, and WP11 keeps their rounding bit for bit). After calc,
// every entry of value, dq, dv, da holds the sample's number: calc overwrites it, or it is a constant that
// create_data() wrote and nothing else touches (the imitation terms' partials, joint_imitation.cpp).
//
// Threading. A Term is immutable after construction (calc is const); everything calc writes lives in the
// TermData that create_data() returns and in no other place, and calc does not allocate. Two threads can
// therefore run the same Term concurrently, each with its own TermData and SampleData.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>

#include "mimic/model/model.hpp"

namespace mimic::terms {

class SampleData;

enum class RowKind { kResidual, kEquality, kInequality };

// What a term reads from SampleData (bit flags). See sample_data.hpp for what each one fills.
using Needs = unsigned;
inline constexpr Needs kNeedsNothing = 0;
inline constexpr Needs kKinematics = 1u << 0;            // model::Data placements at q (oMi, every oMf)
inline constexpr Needs kPlacementDerivatives = 1u << 1;  // DerivativeData placements and axes at q (partials)
inline constexpr Needs kTorques = 1u << 2;               // joint torques of the free motion (RNEA)
inline constexpr Needs kTorquesWithGroundReaction = 1u << 3;  // joint torques with seed 001's ground reaction

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using PatternMatrix = Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Which partials may be non-zero, rows x nv each.
struct Pattern {
  PatternMatrix q, v, a;
  Pattern() = default;
  Pattern(int rows, int nv);
};

// The output of one calc, and the base of each term's scratch.
struct TermData {
  TermData(int rows, int nv);
  virtual ~TermData() = default;
  Eigen::VectorXd value;  // u, rows
  RowMatrix dq, dv, da;   // du/dq (tangent), du/dv, du/da: rows x nv
};

class Term {
 public:
  virtual ~Term() = default;
  Term(const Term&) = delete;
  Term& operator=(const Term&) = delete;

  int rows() const { return static_cast<int>(scale_.size()); }
  RowKind kind() const { return kind_; }
  Needs needs() const { return needs_; }
  const Eigen::VectorXd& scale() const { return scale_; }
  const Eigen::VectorXd& lower() const { return lower_; }
  const Eigen::VectorXd& upper() const { return upper_; }
  const Pattern& pattern() const { return pattern_; }
  const model::Model& model() const { return model_; }

  // The data calc() needs; sized once, so that calc does not allocate.
  virtual std::unique_ptr<TermData> create_data() const;
  // Values (and, with `partials`, the partials) at the sample. `sample` must have been filled for (at
  // least) needs() with the same `partials` flag, and `data` must come from this term's create_data().
  virtual void calc(const SampleData& sample, TermData& data, bool partials) const = 0;
  // What row `row` is, for messages: "RARM_JOINT3 torque", "gaze position z", "right sole rotation x".
  virtual std::string describe(int row) const = 0;

 protected:
  // Scale 1, no bounds, an empty pattern: the derived constructor fills them.
  Term(const model::Model& model, int rows, RowKind kind, Needs needs);

  const model::Model& model_;
  RowKind kind_;
  Needs needs_;
  Eigen::VectorXd scale_, lower_, upper_;
  Pattern pattern_;
};

}  // namespace mimic::terms
