using System.Text;
using Microsoft.Extensions.ObjectPool;

namespace JsonStringify.Internals;

/// <summary>The process-wide pools: output builders sized for JSON documents, and per-call walkers.</summary>
internal static class BufferPool
{
    // A new builder starts at 16K chars (32 KB), so small documents never regrow it.
    public const int InitialBuilderCapacity = 16 * 1024;

    // Builders up to 8M chars (16 MB: canada.json indented is 5.2M chars) are kept; a larger one goes to the GC, so
    // that one huge result does not stay pinned in the pool.
    public const int MaxRetainedBuilderCapacity = 8 * 1024 * 1024;

    // A walker whose cycle stack grew past this many levels is dropped rather than kept.
    public const int MaxRetainedStackCapacity = 1024;

    // As many idle objects as Microsoft.Extensions.ObjectPool keeps by default.
    private static readonly int s_maxRetained = Environment.ProcessorCount * 2;

    public static ObjectPool<StringBuilder> Builders { get; } = CreateBuilderPool();

    public static ObjectPool<Walker> Walkers { get; } = new DefaultObjectPool<Walker>(new WalkerPolicy(), s_maxRetained);

    /// <summary>A pool with the default policy: JSON-sized builders are kept, huge ones dropped.</summary>
    public static ObjectPool<StringBuilder> CreateBuilderPool() => new DefaultObjectPool<StringBuilder>(
        new StringBuilderPooledObjectPolicy
        {
            InitialCapacity = InitialBuilderCapacity,
            MaximumRetainedCapacity = MaxRetainedBuilderCapacity,
        },
        s_maxRetained);

    private sealed class WalkerPolicy : IPooledObjectPolicy<Walker>
    {
        public Walker Create() => new();

        public bool Return(Walker obj)
        {
            obj.Reset();
            return obj.StackCapacity <= MaxRetainedStackCapacity;
        }
    }
}
