#include "mimic/terms/term_sum.hpp"

#include <algorithm>
#include <stdexcept>

namespace mimic::terms {

namespace {

int index_of(RowKind kind) { return static_cast<int>(kind); }

}  // namespace

TermData& TermSumData::of(RowKind kind) {
  return kind == RowKind::kResidual ? residual : kind == RowKind::kEquality ? equality : inequality;
}

const TermData& TermSumData::of(RowKind kind) const {
  return kind == RowKind::kResidual ? residual : kind == RowKind::kEquality ? equality : inequality;
}

void TermSum::add(const std::string& name, std::shared_ptr<const Term> term, double weight) {
  if (!term) throw std::invalid_argument("TermSum: term '" + name + "' is null");
  if (std::any_of(items_.begin(), items_.end(), [&](const Item& i) { return i.name == name; }))
    throw std::invalid_argument("TermSum: a term named '" + name + "' is already there");
  if (&term->model() != &model_)
    throw std::invalid_argument("TermSum: term '" + name + "' is on another model");
  if (!(weight > 0.0)) throw std::invalid_argument("TermSum: term '" + name + "' needs a positive weight");
  if (term->kind() != RowKind::kResidual && weight != 1.0)
    throw std::invalid_argument("TermSum: term '" + name + "' is a constraint; only residuals take a weight");
  Needs all = term->needs();
  for (const Item& i : items_) all |= i.term->needs();
  if ((all & kTorques) && (all & kTorquesWithGroundReaction))
    throw std::invalid_argument("TermSum: term '" + name +
                                "' mixes free-motion torques with torques under the ground reaction");
  items_.push_back({name, std::move(term), weight, true, 0});
  update_offsets();
}

TermSum::Item& TermSum::find(const std::string& name) {
  for (Item& i : items_) {
    if (i.name == name) return i;
  }
  throw std::invalid_argument("TermSum: no term named '" + name + "'");
}

const TermSum::Item& TermSum::item(const std::string& name) const {
  return const_cast<TermSum*>(this)->find(name);
}

void TermSum::set_active(const std::string& name, bool active) {
  find(name).active = active;
  update_offsets();
}

bool TermSum::active(const std::string& name) const { return item(name).active; }

void TermSum::update_offsets() {
  std::fill(std::begin(rows_), std::end(rows_), 0);
  for (Item& i : items_) {
    if (!i.active) continue;
    int& rows = rows_[index_of(i.term->kind())];
    i.offset = rows;
    rows += i.term->rows();
  }
  ++layout_;
}

int TermSum::rows(RowKind kind) const { return rows_[index_of(kind)]; }

Needs TermSum::needs() const {
  Needs needs = kNeedsNothing;
  for (const Item& i : items_) {
    if (i.active) needs |= i.term->needs();
  }
  return needs;
}

Eigen::VectorXd TermSum::scale(RowKind kind) const {
  Eigen::VectorXd scale(rows(kind));
  for (const Item& i : items_) {
    if (i.active && i.term->kind() == kind)
      scale.segment(i.offset, i.term->rows()) = i.weight * i.term->scale();
  }
  return scale;
}

Eigen::VectorXd TermSum::lower() const {
  Eigen::VectorXd lower(rows(RowKind::kInequality));
  for (const Item& i : items_) {
    if (i.active && i.term->kind() == RowKind::kInequality)
      lower.segment(i.offset, i.term->rows()) = i.term->lower();
  }
  return lower;
}

Eigen::VectorXd TermSum::upper() const {
  Eigen::VectorXd upper(rows(RowKind::kInequality));
  for (const Item& i : items_) {
    if (i.active && i.term->kind() == RowKind::kInequality)
      upper.segment(i.offset, i.term->rows()) = i.term->upper();
  }
  return upper;
}

Pattern TermSum::pattern(RowKind kind) const {
  Pattern pattern(rows(kind), model_.nv);
  for (const Item& i : items_) {
    if (!i.active || i.term->kind() != kind) continue;
    const Pattern& p = i.term->pattern();
    pattern.q.middleRows(i.offset, i.term->rows()) = p.q;
    pattern.v.middleRows(i.offset, i.term->rows()) = p.v;
    pattern.a.middleRows(i.offset, i.term->rows()) = p.a;
  }
  return pattern;
}

const TermSum::Item* TermSum::item_at(RowKind kind, int row) const {
  for (const Item& i : items_) {
    if (i.active && i.term->kind() == kind && row >= i.offset && row < i.offset + i.term->rows()) return &i;
  }
  return nullptr;
}

std::string TermSum::describe(RowKind kind, int row) const {
  const Item* i = item_at(kind, row);
  if (i == nullptr) throw std::out_of_range("TermSum: no row " + std::to_string(row) + " of that kind");
  return i->name + ": " + i->term->describe(row - i->offset);
}

TermSumData TermSum::create_data() const {
  TermSumData data{{},
                   TermData(rows(RowKind::kResidual), model_.nv),
                   TermData(rows(RowKind::kEquality), model_.nv),
                   TermData(rows(RowKind::kInequality), model_.nv),
                   layout_};
  data.terms.reserve(items_.size());
  for (const Item& i : items_) data.terms.push_back(i.term->create_data());
  return data;
}

void TermSum::require_layout(const TermSumData& data) const {
  if (data.layout != layout_)
    throw std::logic_error("TermSum: data made before the last add / set_active (create_data again)");
}

void TermSum::calc(const SampleData& sample, TermSumData& data, bool partials) const {
  calc_terms(sample, data, partials, [&](const Item& i, const TermData& own) {
    TermData& stacked = data.of(i.term->kind());
    const int rows = i.term->rows();
    stacked.value.segment(i.offset, rows) = own.value;
    if (!partials) return;
    stacked.dq.middleRows(i.offset, rows) = own.dq;
    stacked.dv.middleRows(i.offset, rows) = own.dv;
    stacked.da.middleRows(i.offset, rows) = own.da;
  });
}

}  // namespace mimic::terms
