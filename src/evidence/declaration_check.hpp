#pragma once
// A transcript of a lab this labrun knows, checked against that lab's declaration: its claims (each
// declared claim once, with the lab's statement, the figures it reads, expectation, tolerance, bound
// and hedge, and the verdict, figure, interval, basis and, in the current version, the detail the
// lab's rule gives on the transcript's own figures), its sizes (each case at a size its spec
// declares, with the shape that size has; the correctness check at the lab's size), its predictions
// (the lab's, each measured at every size both cases ran) and its roofline's cases. What a schema, the cross
// references (evidence/cross_references.hpp) and the figures' own consistency (evidence/consistency.hpp)
// cannot see: a field changed by hand so that the rendering shows "bound 0.000 to 1000000000.000" beside
// "failed".
//
// A transcript of the current schema version was written by this labrun's rules: anything that
// departs from its lab's declaration is forged, and refused with its JSON pointer. An older one was
// written by the rules of its time, which may differ from today's: what today's declaration cannot
// re-derive is shown as recorded and unchecked, and never counted as evidence (`aggregate` counts such
// a claim as unchecked, never as held or failed). A transcript of a lab this labrun does not know
// cannot be checked against any declaration: its claims are all recorded and unchecked.

#include <optional>
#include <string>
#include <vector>

#include "core/transcript.hpp"
#include "evidence/schema_validation.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! The first schema version whose claims are judged by today's rules (1.5.0 added the last rule, the
//! timeline's; 1.6.0's rounds leave a one-round transcript's verdicts as they were): a recorded
//! verdict that the transcript's own figures contradict is forged from this version on, and unchecked
//! before it.
inline constexpr const char* kClaimsRejudgedFromVersion = "1.5.0";

//! A recorded figure or verdict that could not be confirmed, at its JSON pointer: shown as recorded,
//! never counted.
struct UncheckedFigure {
  std::string pointer;
  std::string claim_id;  //!< the claim it belongs to; empty for a figure of no claim
  std::string reason;
};

//! What checking a transcript against its lab's declaration found.
struct DeclarationCheck {
  bool lab_known = false;                  //!< the lab was given (this labrun declares it)
  std::optional<SchemaProblem> forged;     //!< the first departure that can only be an edit
  std::vector<UncheckedFigure> unchecked;  //!< what could not be confirmed (older versions, unknown labs)

  //! Whether the claim's recorded verdict may be counted as evidence.
  [[nodiscard]] bool claim_checked(const std::string& claim_id) const;
};

//! Checks `transcript` against `lab`'s declaration (nullptr: a lab this labrun does not know; every
//! recorded claim is then unchecked). A measured or transcribed transcript is held to every rule; a
//! synthetic one (built by a program, never measured, given rows of its own by `aggregate`) to the
//! rules it records: a claim whose rule differs from the lab's is not judged again, as before.
[[nodiscard]] DeclarationCheck check_against_declaration(const Transcript& transcript, const Lab* lab);

//! Whether schema `version` is kClaimsRejudgedFromVersion or later.
[[nodiscard]] bool claims_rejudged(const std::string& version);

}  // namespace labrun
