//===- PlaceBarriers.cpp - --mgpu-place-barriers
//---------------------------===//
//
// A launch body is written at array level, once per Pallas thread: each op
// that touches a block is collective over the 128 lanes of a warpgroup, and
// once --mgpu-distribute-warpgroups has dealt the elements to lanes, one
// lane may read or overwrite what another lane touched in an earlier op.
// This pass is the analysis that decides where the lanes must meet, kept
// apart from the distribution that rewrites ops (the shape of Triton's
// Membar): it tracks, per buffer, the lanes' reads, writes and atomic
// updates since the last barrier, through views and to a fixed point over
// loops and branches, and puts an mgpu.warpgroup_barrier before each
// access that conflicts with a pending one, before each op that publishes
// the Pallas thread's memory (an arrival, a signal, a lane-0 side effect)
// while anything is pending, and after commit_smem and the waits for
// copies. The distribution lowers the op to the warpgroup's named barrier;
// the exchanges it makes through its own scratch area keep their own.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/BufferViews.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPLACEBARRIERS
#include "mgpu/GPU/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// The allocations `v` (a memref or TMEM value) may be a view of: launch
/// arguments and `memref.alloc`s; null where the analysis cannot tell, and
/// then it may be any buffer.
void collectAllocations(Value v, SmallVectorImpl<Value> &allocations) {
  SmallVector<Value> buffers;
  collectViewedBuffers(v, buffers, ViewChain::sameMemory);
  for (Value buffer : buffers) {
    Value allocation;
    if (auto arg = dyn_cast<BlockArgument>(buffer)) {
      if (isa<LaunchOp>(arg.getOwner()->getParentOp()))
        allocation = buffer;
    } else if (auto ref = buffer.getDefiningOp<TmemRefOp>()) {
      // TMEM is named by the slot its allocation wrote its address to.
      collectAllocations(ref.getSlot(), allocations);
      continue;
    } else if (buffer.getDefiningOp<memref::AllocOp>() ||
               buffer.getDefiningOp<memref::AllocaOp>()) {
      allocation = buffer;
    }
    allocations.push_back(allocation);
  }
}

/// Distinct allocations never overlap (the launch verifier keeps shared
/// scratch entries apart), but two global-memory arguments may be one array
/// (an output aliased to an input).
bool mayAlias(Value x, Value y) {
  if (!x || !y || x == y)
    return true;
  return isGlobalMemRef(x.getType()) && isGlobalMemRef(y.getType());
}

//===----------------------------------------------------------------------===//
// Pending accesses
//===----------------------------------------------------------------------===//

enum class AccessKind { read, write, atomic };

/// The buffers the lanes accessed since the last barrier (null: unknown).
struct Pending {
  llvm::SmallSetVector<Value, 4> reads, writes, atomics;

  bool empty() const {
    return reads.empty() && writes.empty() && atomics.empty();
  }
  void clear() { *this = Pending(); }
  void merge(const Pending &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
    atomics.insert(other.atomics.begin(), other.atomics.end());
  }
  bool operator==(const Pending &other) const {
    auto same = [](const auto &x, const auto &y) {
      return x.size() == y.size() &&
             llvm::all_of(x, [&](Value v) { return y.contains(v); });
    };
    return same(reads, other.reads) && same(writes, other.writes) &&
           same(atomics, other.atomics);
  }
  void record(Value root, AccessKind kind) {
    (kind == AccessKind::read    ? reads
     : kind == AccessKind::write ? writes
                                 : atomics)
        .insert(root);
  }
  /// Whether an access of `kind` to `root` by one lane may race with a
  /// pending access by another: atomic updates combine in any order among
  /// themselves; every other pair with a write does not.
  bool conflicts(Value root, AccessKind kind) const {
    auto touches = [&](const llvm::SmallSetVector<Value, 4> &set) {
      return llvm::any_of(set, [&](Value v) { return mayAlias(v, root); });
    };
    switch (kind) {
    case AccessKind::read:
      return touches(writes) || touches(atomics);
    case AccessKind::write:
      return touches(reads) || touches(writes) || touches(atomics);
    case AccessKind::atomic:
      return touches(reads) || touches(writes);
    }
    llvm_unreachable("access kind");
  }
};

//===----------------------------------------------------------------------===//
// What an op does, as the lanes see it
//===----------------------------------------------------------------------===//

struct Access {
  Value root;
  AccessKind kind;
};

/// How one op meets the lanes' memory.
struct OpEffect {
  /// Accesses the lanes make themselves: each may need a barrier first, and
  /// each is pending afterwards.
  SmallVector<Access, 2> lanes;
  /// Accesses made for the Pallas thread by the tensor cores or a copy
  /// engine: a barrier first if they conflict, nothing pending afterwards
  /// (their completion is the kernel's wait or barrier).
  SmallVector<Access, 2> async;
  /// Makes the Pallas thread's memory visible to others: every pending
  /// access completes first.
  bool publishes = false;
  /// Every lane knows afterwards: a barrier after (`placeAfter`) or one the
  /// distribution makes itself.
  bool placeAfter = false, synchronizes = false;
};

bool isLanePrivate(Value base) {
  auto view = base.getDefiningOp<memref::SubViewOp>();
  return view && view->hasAttr(MGPUDialect::getLanePrivateAttrName());
}

void addAccesses(SmallVectorImpl<Access> &accesses, Value base,
                 AccessKind kind) {
  SmallVector<Value> allocations;
  collectAllocations(base, allocations);
  for (Value allocation : allocations)
    accesses.push_back({allocation, kind});
}

/// The effects an op without a case of its own declares: read-only ops read
/// what they name; anything else runs on lane 0 for the Pallas thread.
OpEffect getDeclaredEffect(Operation *op) {
  OpEffect effect;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  bool readOnly = iface && iface.onlyHasEffect<MemoryEffects::Read>();
  if (!readOnly)
    effect.publishes = true;
  SmallVector<MemoryEffects::EffectInstance> effects;
  if (iface)
    iface.getEffects(effects);
  else
    effect.lanes.push_back({Value(), AccessKind::write});
  for (const MemoryEffects::EffectInstance &instance : effects) {
    if (!isa<MemoryEffects::Read, MemoryEffects::Write>(instance.getEffect()))
      continue;
    AccessKind kind = isa<MemoryEffects::Read>(instance.getEffect())
                          ? AccessKind::read
                          : AccessKind::write;
    if (Value value = instance.getValue())
      addAccesses(effect.lanes, value, kind);
    else
      effect.lanes.push_back({Value(), kind});
  }
  return effect;
}

OpEffect getEffect(Operation *op) {
  OpEffect effect;
  auto lane = [&](Value base, AccessKind kind) {
    if (!isLanePrivate(base) &&
        !op->hasAttr(MGPUDialect::getUnsyncedAttrName()))
      addAccesses(effect.lanes, base, kind);
  };
  auto async = [&](Value base, AccessKind kind) {
    addAccesses(effect.async, base, kind);
  };
  // A tensor-core operand in a tiled buffer is read in place; one without
  // transforms is read by the lanes (copied, or used lane by lane).
  auto mmaInput = [&](Value operand, ArrayAttr transforms) {
    if (!isa<MemRefType>(operand.getType()))
      return;
    if (transforms)
      async(operand, AccessKind::read);
    else
      lane(operand, AccessKind::read);
  };
  TypeSwitch<Operation *>(op)
      .Case<vector::TransferReadOp, vector::LoadOp, memref::LoadOp>(
          [&](Operation *o) { lane(o->getOperand(0), AccessKind::read); })
      .Case([&](vector::TransferWriteOp o) {
        lane(o.getBase(), AccessKind::write);
      })
      .Case([&](vector::StoreOp o) { lane(o.getBase(), AccessKind::write); })
      .Case([&](memref::StoreOp o) { lane(o.getMemRef(), AccessKind::write); })
      .Case([&](AtomicStoreOp o) { lane(o.getRef(), AccessKind::atomic); })
      .Case([&](WgmmaOp o) {
        mmaInput(o.getA(), o.getATransformsAttr());
        mmaInput(o.getB(), o.getBTransformsAttr());
      })
      .Case([&](AsyncLoadTmemOp o) { lane(o.getSrc(), AccessKind::read); })
      .Case([&](AsyncStoreTmemOp o) { lane(o.getDst(), AccessKind::write); })
      // Issued by one lane: what the other lanes wrote into its operands
      // and what they still read of its accumulator must be done.
      .Case([&](Tcgen05MmaOp o) {
        async(o.getA(), AccessKind::read);
        async(o.getB(), AccessKind::read);
        async(o.getAcc(), AccessKind::write);
      })
      // A copy in is issued for the Pallas thread once its lanes are done
      // with what came before (JAX's lowering meets first too).
      .Case([&](CopyGmemToSmemOp o) {
        effect.publishes = true;
        async(o.getDst(), AccessKind::write);
      })
      // Every lane leaves the wait after the phase's arrivals: what they
      // published is visible to all lanes, which need not meet for it.
      .Case([&](BarrierWaitOp) {})
      .Case<BarrierArriveOp, SemaphoreSignalOp, Tcgen05CommitArriveOp,
            AsyncStoreSmemOp>([&](Operation *) { effect.publishes = true; })
      .Case<CommitSmemOp, WaitSmemToGmemOp, WaitGmemToSmemOp>(
          [&](Operation *) { effect.placeAfter = true; })
      // Lane 0 waits and the others wait for it.
      .Case([&](SemaphoreWaitOp) { effect.synchronizes = true; })
      .Case([&](WarpgroupBarrierOp) { effect.synchronizes = true; })
      // Lane 0 keeps the trace; a print reads registers only; a lane waits
      // for its own TMEM loads; the TMEM address is written before the body.
      .Case<ProfileEventOp, GlobalTimerOp, DebugPrintOp, WaitLoadTmemOp,
            TmemRefOp>([](Operation *) {})
      .Default([&](Operation *o) {
        // Copies, waits, fences and other primitives are the backends':
        // their ordering is the kernel's (barriers, commit_smem).
        if (o->hasTrait<PallasThreadPrimitive>() || isMemoryEffectFree(o))
          return;
        effect = getDeclaredEffect(o);
      });
  return effect;
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

class BarrierPlacement {
public:
  /// Solves `block` from `entry` and returns the state at its end; with
  /// `place`, also puts the barriers in.
  Pending visitBlock(Block &block, Pending state);

  bool place = true;

private:
  void visitOp(Operation *op, Pending &state);
  void visitLoop(Region &body, Pending &state);
  void visitWhile(scf::WhileOp op, Pending &state);
  void barrierBefore(Operation *op, Pending &state) {
    if (place) {
      OpBuilder b(op);
      WarpgroupBarrierOp::create(b, op->getLoc());
    }
    state.clear();
  }
  /// Runs `fn` without placing, for the fixed point of a loop.
  template <typename Fn> auto dryRun(Fn fn) {
    bool saved = place;
    place = false;
    auto result = fn();
    place = saved;
    return result;
  }
};

Pending BarrierPlacement::visitBlock(Block &block, Pending state) {
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator()))
    visitOp(&op, state);
  return state;
}

/// A loop body's entry state is what is pending before the loop joined
/// with what its previous iteration leaves; it only grows, so it settles.
void BarrierPlacement::visitLoop(Region &body, Pending &state) {
  Pending entry = state;
  for (int round = 0; round < 8; ++round) {
    Pending exit = dryRun([&] { return visitBlock(body.front(), entry); });
    Pending next = state;
    next.merge(exit);
    if (next == entry)
      break;
    entry = next;
  }
  // Zero trips leave the state before the loop.
  state.merge(visitBlock(body.front(), entry));
}

void BarrierPlacement::visitWhile(scf::WhileOp op, Pending &state) {
  Pending entry = state;
  for (int round = 0; round < 8; ++round) {
    Pending next = dryRun([&] {
      Pending afterCondition = visitBlock(op.getBefore().front(), entry);
      Pending exit = visitBlock(op.getAfter().front(), afterCondition);
      Pending merged = state;
      merged.merge(exit);
      return merged;
    });
    if (next == entry)
      break;
    entry = next;
  }
  Pending afterCondition = visitBlock(op.getBefore().front(), entry);
  visitBlock(op.getAfter().front(), afterCondition);
  state = afterCondition;
}

void BarrierPlacement::visitOp(Operation *op, Pending &state) {
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return visitLoop(forOp.getRegion(), state);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return visitWhile(whileOp, state);
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
    // Each branch starts from the state before; an absent else region is
    // the empty branch.
    Pending exit = state;
    for (Region &region : op->getRegions())
      if (!region.empty())
        exit.merge(visitBlock(region.front(), state));
    state = exit;
    return;
  }
  OpEffect effect;
  if (op->getNumRegions()) {
    // A region of another kind (scf.parallel, a linalg op, which becomes
    // one): its iterations are dealt to the lanes round-robin, in no layout
    // of theirs, so it is one access of anything.
    effect.publishes = true;
    effect.lanes.push_back({Value(), AccessKind::write});
  } else {
    effect = getEffect(op);
  }
  if (effect.synchronizes) {
    state.clear();
    return;
  }
  bool needed = effect.publishes && !state.empty();
  for (const Access &access :
       llvm::concat<const Access>(effect.lanes, effect.async))
    needed = needed || state.conflicts(access.root, access.kind);
  if (needed)
    barrierBefore(op, state);
  for (const Access &access : effect.lanes)
    state.record(access.root, access.kind);
  if (effect.placeAfter) {
    if (place && !isa_and_nonnull<WarpgroupBarrierOp>(op->getNextNode())) {
      OpBuilder b(op->getContext());
      b.setInsertionPointAfter(op);
      WarpgroupBarrierOp::create(b, op->getLoc());
    }
    state.clear();
  }
}

struct PlaceBarriersPass
    : public mgpu::impl::MGPUPlaceBarriersBase<PlaceBarriersPass> {
  void runOnOperation() override {
    getOperation()->walk([&](LaunchOp launch) {
      if (launch.getLanes() || launch.getBody().empty())
        return;
      BarrierPlacement placement;
      placement.visitBlock(launch.getBody().front(), Pending());
    });
  }
};

} // namespace
