// calc is allocation-free and thread-safe (term.hpp, Threading): SampleData::fill and TermSum::calc with
// every term allocate nothing, and two threads, each with its own SampleData and TermSumData on the same
// TermSum, give bit-identical results to one thread.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "factory.hpp"
#include "mimic/terms/term_sum.hpp"
#include "support/allocation_counter.hpp"

namespace mimic::test {
namespace {

using namespace terms;

// Every term of the factory on HRP-2 that reads `torques` (free motion or ground reaction: one sum each,
// since a sample holds one torque model) plus the kinematic ones.
TermSum sum_of(const std::vector<TermCase>& cases, Needs torques) {
  TermSum sum(hrp2_model());
  for (const TermCase& c : cases) {
    const Needs other = torques == kTorques ? kTorquesWithGroundReaction : kTorques;
    if (!(c.term->needs() & other)) sum.add(c.name, c.term);
  }
  return sum;
}

class NoAllocation : public ::testing::TestWithParam<Needs> {};

TEST_P(NoAllocation, FillAndCalcDoNotAllocate) {
  const std::vector<TermCase> cases = term_cases(hrp2_model(), "Hrp2");
  const TermSum sum = sum_of(cases, GetParam());
  SampleData sample(hrp2_model(), feet_of(hrp2_model()).ground);
  sample.contact = cases[4].contact;  // double support
  TermSumData data = sum.create_data();
  std::mt19937 rng(1);
  set_random_state(sample, rng);
  for (const bool partials : {false, true}) {
    const Counts count = count_allocations([&] {
      sample.fill(sum.needs(), partials);
      sum.calc(sample, data, partials);
    });
    EXPECT_EQ(count.total(), 0) << "partials " << partials;
  }
}

TEST_P(NoAllocation, TwoThreadsGiveTheSameResultsAsOne) {
  const std::vector<TermCase> cases = term_cases(hrp2_model(), "Hrp2");
  const TermSum sum = sum_of(cases, GetParam());
  const auto run = [&](int seed, TermSumData& data) {
    SampleData sample(hrp2_model(), feet_of(hrp2_model()).ground);
    sample.contact = cases[4].contact;
    std::mt19937 rng(static_cast<unsigned>(seed));
    for (int k = 0; k < 50; ++k) {  // many samples, so that the threads overlap
      set_random_state(sample, rng);
      sample.fill(sum.needs(), true);
      sum.calc(sample, data, true);
    }
  };
  TermSumData alone = sum.create_data(), first = sum.create_data(), second = sum.create_data();
  run(4, alone);
  std::thread a([&] { run(4, first); });
  std::thread b([&] { run(4, second); });
  a.join();
  b.join();
  for (const RowKind kind : {RowKind::kResidual, RowKind::kEquality, RowKind::kInequality}) {
    for (const TermSumData* d : {&first, &second}) {
      EXPECT_EQ(d->of(kind).value, alone.of(kind).value);
      EXPECT_EQ(d->of(kind).dq, alone.of(kind).dq);
      EXPECT_EQ(d->of(kind).dv, alone.of(kind).dv);
      EXPECT_EQ(d->of(kind).da, alone.of(kind).da);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Torques, NoAllocation, ::testing::Values(kTorques, kTorquesWithGroundReaction));

}  // namespace
}  // namespace mimic::test
