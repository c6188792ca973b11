// Layouts of the personalized exchanges (see optcoll/plan/alltoall.hpp).
#include <algorithm>
#include <string>

#include "optcoll/error.hpp"
#include "optcoll/plan/alltoall.hpp"

namespace optcoll::plan {
namespace {

std::int64_t extent_of(std::span<const Segment> g) {
  std::int64_t e = 0;
  for (const Segment& s : g)
    if (s.count > 0) e = std::max(e, s.offset + s.count);
  return e;
}

// recv, then send shifted to send_at, then the packed working groups.
ExchangeLayout assemble(std::span<const Segment> recv, std::span<const Segment> send,
                        std::span<const std::int64_t> work) {
  ExchangeLayout out;
  out.send_at = extent_of(recv);
  out.work_at = out.send_at + extent_of(send);
  std::vector<Segment> g;
  g.reserve(recv.size() + send.size() + work.size());
  g.insert(g.end(), recv.begin(), recv.end());
  for (const Segment& s : send) g.push_back({out.send_at + s.offset, s.count});
  std::int64_t at = out.work_at;
  for (const std::int64_t n : work) {
    g.push_back({at, n});
    at += n;
  }
  out.layout = BlockLayout(std::move(g), 1);
  return out;
}

}  // namespace

ExchangeLayout alltoall_layout(std::span<const Segment> recv, std::span<const Segment> send) {
  if (recv.size() != send.size()) throw Error(Errc::internal, "alltoall_layout: recv and send sizes differ");
  return assemble(recv, send, {});
}

ExchangeLayout alltoall_layout(rank_t p, std::int64_t count) {
  std::vector<Segment> g(static_cast<std::size_t>(p));
  for (rank_t i = 0; i < p; ++i) g[static_cast<std::size_t>(i)] = {i * count, count};
  return assemble(g, g, {});
}

Segment piece(std::int64_t n, rank_t p, rank_t i, rank_t j, rank_t x) noexcept {
  const std::int64_t base = n / p;
  const std::int64_t rem = n % p;
  const rank_t shift = (i + j) % p;
  // Pieces x' < x that hold one extra element: x' in the cyclic interval
  // [shift, shift + rem) of residues mod p.
  std::int64_t extra = 0;
  if (shift + rem <= p) {
    extra = std::clamp<std::int64_t>(std::min<std::int64_t>(x, shift + rem) - shift, 0, rem);
  } else {
    extra = std::max<std::int64_t>(x - shift, 0) + std::min<std::int64_t>(x, shift + rem - p);
  }
  const bool mine = ((x - shift) % p + p) % p < rem;
  return {x * base + extra, base + (mine ? 1 : 0)};
}

ExchangeLayout many_to_many_layout(rank_t p, rank_t r, std::span<const std::int64_t> counts,
                                   std::span<const std::int64_t> recv_displs, std::span<const std::int64_t> send_displs,
                                   bool work) {
  const auto pp = static_cast<std::size_t>(p * p);
  if (counts.size() < pp || recv_displs.size() < static_cast<std::size_t>(p) ||
      send_displs.size() < static_cast<std::size_t>(p))
    throw Error(Errc::internal, "many_to_many_layout: too few counts or displacements");
  std::vector<Segment> recv(pp), send(pp);
  std::vector<std::int64_t> w;
  for (rank_t o = 0; o < p; ++o) {
    const std::int64_t in = counts[static_cast<std::size_t>(o * p + r)];   // from o to r
    const std::int64_t out = counts[static_cast<std::size_t>(r * p + o)];  // from r to o
    for (rank_t x = 0; x < p; ++x) {
      const Segment a = piece(in, p, o, r, x);
      const Segment b = piece(out, p, r, o, x);
      recv[static_cast<std::size_t>(o * p + x)] = {recv_displs[static_cast<std::size_t>(o)] + a.offset, a.count};
      send[static_cast<std::size_t>(o * p + x)] = {send_displs[static_cast<std::size_t>(o)] + b.offset, b.count};
    }
  }
  if (work) {
    w.resize(pp);
    for (rank_t i = 0; i < p; ++i)
      for (rank_t j = 0; j < p; ++j)
        w[static_cast<std::size_t>(i * p + j)] = piece(counts[static_cast<std::size_t>(i * p + j)], p, i, j, r).count;
  }
  return assemble(recv, send, w);
}

std::vector<BlockLayout> exchange_layouts(Collective op, rank_t p, std::span<const std::int64_t> counts) {
  if (!is_exchange(op)) throw Error(Errc::internal, "exchange_layouts: not an exchange");
  if (counts.size() < static_cast<std::size_t>(p * p))
    throw Error(Errc::invalid_count, "exchange_layouts: needs p*p counts");
  for (std::size_t k = 0; k < static_cast<std::size_t>(p * p); ++k)
    if (counts[k] < 0) throw Error(Errc::invalid_count, "negative count " + std::to_string(counts[k]));
  std::vector<BlockLayout> out;
  out.reserve(static_cast<std::size_t>(p));
  std::vector<std::int64_t> rd(static_cast<std::size_t>(p)), sd(rd);
  std::vector<Segment> recv(static_cast<std::size_t>(p)), send(recv);
  for (rank_t r = 0; r < p; ++r) {
    std::int64_t ra = 0, sa = 0;
    for (rank_t o = 0; o < p; ++o) {
      const auto u = static_cast<std::size_t>(o);
      rd[u] = ra;
      sd[u] = sa;
      recv[u] = {ra, counts[static_cast<std::size_t>(o * p + r)]};
      send[u] = {sa, counts[static_cast<std::size_t>(r * p + o)]};
      ra += recv[u].count;
      sa += send[u].count;
    }
    if (op == Collective::many_to_many)
      out.push_back(many_to_many_layout(p, r, counts, rd, sd, true).layout);
    else
      out.push_back(alltoall_layout(recv, send).layout);
  }
  return out;
}

}  // namespace optcoll::plan
