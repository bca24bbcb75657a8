#pragma once
// The day-48 lab's GPU side, declared case by case (src/cases/declared_lab.hpp): its buffers, its
// correctness versions with their float64 references, and every timed case with its region. The
// harness owns the buffers, the seeded inputs, poisoning and the correctness loop.

#include "cases/declared_lab.hpp"
#include "kernels.hpp"

namespace day48 {

//! The chain's buffers as a declaration names them.
struct ChainIds {
  labrun::BufferId x, residual, t1, t2, t3, y, halfway, copy_out;

  //! The same buffers as a session holds them.
  [[nodiscard]] ChainBuffers on(const labrun::RegionContext& ctx) const;
};

//! The lab's declaration with the handles another declaration needs to add a case to it (a
//! student's submission: submission_case.cpp): the chain's buffers, the chain's float64 check of
//! `y` and the staged chain's correctness version.
struct ChainDeclaration {
  labrun::LabDeclaration lab;
  ChainIds ids;
  labrun::CheckId staged;
  //! A correctness version of a chain whose output is `ids.y`: the float64 chain from the inputs,
  //! with the lab's chain tolerance.
  [[nodiscard]] labrun::CheckDeclaration chain_check(std::string version, labrun::RegionBuilder region) const;
};

[[nodiscard]] ChainDeclaration declare_chain();

//! declare_chain().lab: what Lab::cases and Lab::open_session come from.
[[nodiscard]] labrun::LabDeclaration declare_lab();

}  // namespace day48
