// Personalized exchanges as plans: Alltoall, Alltoallv and many-to-many
// (communication-primitives notes §8 and §9).
//
// Unlike the other collectives, each rank has its own layout (its counts
// differ), built here from what that rank knows. The data groups of an
// exchange layout are, in this order (c pieces per message, see
// plan::Collective):
//   [0, p*c)       receive pieces: piece r*c + x is piece x of the message
//                  from rank s = r (at the receiver's displacement for s);
//   [p*c, 2*p*c)   send pieces: p*c + d*c + x is piece x of the message to d;
//   [2*p*c, ...)   working space (many_to_many's two-phase routing), starts
//                  empty.
// Elements [0, recv_extent) are the receive buffer, [send_at, work_at) the
// send buffer, [work_at, extent) the working space: three memory areas for
// the MPI executor (MpiExecutor::set_parts), one element space for plans and
// the simulator. One block per group (BlockLayout n = 1), so block id = group.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {

// Pieces per message: p for many_to_many, 1 otherwise.
constexpr std::int64_t exchange_pieces(Collective op, rank_t p) noexcept {
  return op == Collective::many_to_many ? p : 1;
}

struct ExchangeLayout {
  BlockLayout layout;
  std::int64_t send_at = 0;  // first element of the send buffer part
  std::int64_t work_at = 0;  // first element of the working space
};

// recv[s] / send[d]: the message from s / to d in the receive / send buffer
// (offsets >= 0 from each buffer's element 0), c = 1.
ExchangeLayout alltoall_layout(std::span<const Segment> recv, std::span<const Segment> send);

// Equal counts, packed buffers: block s of recv and d of send hold count
// elements each.
ExchangeLayout alltoall_layout(rank_t p, std::int64_t count);

// Piece x (0 <= x < p) of an n-element message from i to j split into p
// pieces as evenly as possible: n / p elements each, one more for the
// n mod p pieces x with (x - i - j) mod p < n mod p (rotated by i + j so
// that the extra elements of different messages land on different ranks).
// Offset relative to the message's first element.
Segment piece(std::int64_t n, rank_t p, rank_t i, rank_t j, rank_t x) noexcept;

// Many-to-many at rank r. counts: the p x p matrix of message sizes in
// elements, counts[i*p + j] from i to j (every rank needs it: phase 2 routes
// other ranks' pieces); recv_displs[i] / send_displs[j]: where rank r's
// messages from i / to j start in its buffers. With work, the p*p working
// groups i*p + j (piece r of the message from i to j) follow, packed.
ExchangeLayout many_to_many_layout(rank_t p, rank_t r, std::span<const std::int64_t> counts,
                                   std::span<const std::int64_t> recv_displs, std::span<const std::int64_t> send_displs,
                                   bool work);

// The p layouts of a whole exchange for the simulator (PlanContext::
// rank_layouts): counts as above, buffers packed in rank order. alltoall /
// alltoallv: c = 1; many_to_many: with the working groups.
std::vector<BlockLayout> exchange_layouts(Collective op, rank_t p, std::span<const std::int64_t> counts);

}  // namespace optcoll::plan
