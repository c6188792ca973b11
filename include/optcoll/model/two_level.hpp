// The two-level machine of the node-aware plans (plan/nodes.hpp): ranks on
// one node talk through shared memory, each node reaches the others
// through one network port that all its ranks share.
//
// A round costs the longest of: alpha_in + beta_in * bytes for a message
// within a node, and, for each node, alpha_out + beta_out * B where B is the
// larger of the bytes its ranks send to other nodes and the bytes they
// receive from them in that round (the port is full duplex; concurrent
// messages through it queue). A flat plan whose ranks all send across at
// once thus pays ppn * beta_out per byte of a message, a plan with one
// sender per node beta_out. The simulator prices plans so
// (sim::SimOptions::nodes), the registry's node-aware plans have closed
// forms of it (plan/prices.hpp), and the MPI layer measures both levels.
#pragma once

#include "optcoll/model/block_count.hpp"

namespace optcoll::model {

struct TwoLevel {
  AlphaBeta in{2e-7, 4e-11};   // within a node
  AlphaBeta out{1e-6, 8e-11};  // one node's port
  // The alpha-beta machine a flat plan sees when each of a node's ppn ranks
  // sends one message across per round: the port shared by all of them.
  AlphaBeta flat(std::int64_t ppn) const noexcept {
    return {out.alpha, out.beta * static_cast<double>(ppn < 1 ? 1 : ppn), out.o};
  }
};

}  // namespace optcoll::model
