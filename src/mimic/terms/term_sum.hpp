// TermSum: named terms with weights, stacked by row kind (Crocoddyl's CostModelSum, for all three kinds).
//
// Rows of one kind are stacked in the order the terms were added, inactive terms leaving no rows; each
// active term's `offset` is its first row within its kind. For residual rows the total per-row factor is
// weight * Term::scale() (scale(kind)); weights are for residual terms only (a constraint's weight would
// change nothing but its multiplier's unit), so add() refuses a weight other than 1 for the others.
//
// Data follows the model: create_data() after the last add() / set_active(), then calc() with it; calc
// refuses data made for another layout. calc is const and does not allocate (term.hpp, Threading).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mimic/terms/sample_data.hpp"
#include "mimic/terms/term.hpp"

namespace mimic::terms {

// The stacked output of TermSum::calc for each row kind, and each term's own data.
struct TermSumData {
  std::vector<std::unique_ptr<TermData>> terms;  // one per item, active or not
  TermData residual, equality, inequality;       // u and its partials, stacked per kind
  long layout = -1;                              // TermSum::layout() at create_data()
  TermData& of(RowKind kind);
  const TermData& of(RowKind kind) const;
};

class TermSum {
 public:
  struct Item {
    std::string name;
    std::shared_ptr<const Term> term;
    double weight = 1.0;
    bool active = true;
    int offset = 0;  // first row within its kind (active terms)
  };

  explicit TermSum(const model::Model& model) : model_(model) {}

  // Throws std::invalid_argument for a duplicate name, a term on another model, a non-positive weight or
  // a weight other than 1 on a constraint term, and for free-motion torques next to torques with the
  // ground reaction (one SampleData holds one of them).
  void add(const std::string& name, std::shared_ptr<const Term> term, double weight = 1.0);
  // Throws std::invalid_argument for an unknown name.
  void set_active(const std::string& name, bool active);
  bool active(const std::string& name) const;
  const Item& item(const std::string& name) const;
  const std::vector<Item>& items() const { return items_; }
  // The active term whose stacked `kind` rows hold `row` (its row there: row - offset); nullptr if none.
  const Item* item_at(RowKind kind, int row) const;

  int rows(RowKind kind) const;
  Needs needs() const;                        // union over the active terms
  Eigen::VectorXd scale(RowKind kind) const;  // weight * Term::scale(), stacked
  Eigen::VectorXd lower() const;              // inequality bounds, stacked
  Eigen::VectorXd upper() const;
  Pattern pattern(RowKind kind) const;  // stacked
  // Which term and row a stacked row of `kind` is ("torque: RARM_JOINT3 torque").
  std::string describe(RowKind kind, int row) const;

  TermSumData create_data() const;
  // Every active term at the sample; `sample` must be filled for needs() with the same `partials`.
  void calc(const SampleData& sample, TermSumData& data, bool partials) const;
  // calc without the stacking: each active term's rows into its own data (data.terms), then
  // visit(item, that data), in item order. For a consumer that maps each term's rows itself
  // (motion/spline_problem.cpp), to which the stacked copy would only cost time.
  template <class Visit>
  void calc_terms(const SampleData& sample, TermSumData& data, bool partials, const Visit& visit) const {
    require_layout(data);
    for (std::size_t k = 0; k < items_.size(); ++k) {
      const Item& i = items_[k];
      if (!i.active) continue;
      TermData& own = *data.terms[k];
      i.term->calc(sample, own, partials);
      visit(i, static_cast<const TermData&>(own));
    }
  }

  long layout() const { return layout_; }

 private:
  Item& find(const std::string& name);
  // Throws std::logic_error for data made before the last add / set_active.
  void require_layout(const TermSumData& data) const;
  void update_offsets();

  const model::Model& model_;
  std::vector<Item> items_;
  int rows_[3] = {0, 0, 0};
  long layout_ = 0;  // changes with every add / set_active
};

}  // namespace mimic::terms
