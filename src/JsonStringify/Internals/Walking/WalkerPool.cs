using Microsoft.Extensions.ObjectPool;

namespace JsonStringify.Internals;

/// <summary>The process-wide pool of per-call walkers.</summary>
internal static class WalkerPool
{
    // A walker whose cycle stack grew past this many levels is dropped rather than kept.
    public const int MaxRetainedStackCapacity = 1024;

    // As many idle objects as Microsoft.Extensions.ObjectPool keeps by default.
    private static readonly int s_maxRetained = Environment.ProcessorCount * 2;

    /// <summary>A walker for one call: this thread's own if it is free, else one from the shared pool.</summary>
    public static Walker<TOutput> Rent<TOutput>()
        where TOutput : struct, IJsonOutput<TOutput> => Pool<TOutput>.Rent();

    /// <summary>Gives a walker back: it is reset, and kept by this thread or by the pool.</summary>
    public static void Return<TOutput>(Walker<TOutput> walker)
        where TOutput : struct, IJsonOutput<TOutput> => Pool<TOutput>.Return(walker);

    // The walkers of one output. Each thread keeps the walker it used last, in front of the shared pool, as
    // System.Text.Json keeps a writer per thread: a call then rents and returns without an interlocked exchange. A
    // nested call finds the slot empty and goes to the pool.
    private static class Pool<TOutput>
        where TOutput : struct, IJsonOutput<TOutput>
    {
        private static readonly ObjectPool<Walker<TOutput>> s_shared =
            new DefaultObjectPool<Walker<TOutput>>(new WalkerPolicy<TOutput>(), s_maxRetained);

        [ThreadStatic]
        private static Walker<TOutput>? s_threadWalker;

        public static Walker<TOutput> Rent()
        {
            Walker<TOutput>? walker = s_threadWalker;
            if (walker is null)
            {
                return s_shared.Get();
            }

            s_threadWalker = null;
            return walker;
        }

        public static void Return(Walker<TOutput> walker)
        {
            if (s_threadWalker is null)
            {
                walker.Reset();
                if (IsWorthKeeping(walker))
                {
                    s_threadWalker = walker;
                }

                return;
            }

            s_shared.Return(walker);
        }
    }

    // A walker whose cycle stack grew very deep is left to the GC.
    private static bool IsWorthKeeping<TOutput>(Walker<TOutput> walker)
        where TOutput : struct, IJsonOutput<TOutput> => walker.StackCapacity <= MaxRetainedStackCapacity;

    private sealed class WalkerPolicy<TOutput> : IPooledObjectPolicy<Walker<TOutput>>
        where TOutput : struct, IJsonOutput<TOutput>
    {
        public Walker<TOutput> Create() => new();

        public bool Return(Walker<TOutput> obj)
        {
            obj.Reset();
            return IsWorthKeeping(obj);
        }
    }
}
