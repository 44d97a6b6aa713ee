#include "mimic/terms/term.hpp"

#include <limits>

namespace mimic::terms {

Pattern::Pattern(int rows, int nv)
    : q(PatternMatrix::Constant(rows, nv, false)),
      v(PatternMatrix::Constant(rows, nv, false)),
      a(PatternMatrix::Constant(rows, nv, false)) {}

TermData::TermData(int rows, int nv)
    : value(Eigen::VectorXd::Zero(rows)),
      dq(RowMatrix::Zero(rows, nv)),
      dv(RowMatrix::Zero(rows, nv)),
      da(RowMatrix::Zero(rows, nv)) {}

Term::Term(const model::Model& model, int rows, RowKind kind, Needs needs)
    : model_(model),
      kind_(kind),
      needs_(needs),
      scale_(Eigen::VectorXd::Ones(rows)),
      lower_(Eigen::VectorXd::Constant(rows, -std::numeric_limits<double>::infinity())),
      upper_(Eigen::VectorXd::Constant(rows, std::numeric_limits<double>::infinity())),
      pattern_(rows, model.nv) {}

std::unique_ptr<TermData> Term::create_data() const { return std::make_unique<TermData>(rows(), model_.nv); }

}  // namespace mimic::terms
