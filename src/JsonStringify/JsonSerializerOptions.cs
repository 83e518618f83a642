using System.Text;
using JsonStringify.Internals;
using Microsoft.Extensions.ObjectPool;

namespace JsonStringify;

/// <summary>Settings for a <see cref="JsonSerializer"/>. An instance can be shared by any number of serializers.</summary>
public sealed class JsonSerializerOptions
{
    /// <summary>The settings used when none are given.</summary>
    public static JsonSerializerOptions Default { get; } = new();

    /// <summary>
    /// The pool that output builders are rented from and returned to, once per call. The default pool keeps up to
    /// twice the processor count of builders of at most 1M chars (2 MB) each, and one of at most 32M chars (64 MB) for
    /// large documents; larger builders are released to the GC. Supply your own to share a pool with the rest of your
    /// host or to change those limits.
    /// </summary>
    public ObjectPool<StringBuilder> StringBuilderPool { get; init; } = BufferPool.Builders;

    /// <summary>
    /// Whether plain objects and dense arrays may be read through Jint's internals, which is much faster. The
    /// internals are self-tested once per process and the public API is used when they do not match this Jint version,
    /// so the output is the same either way; see <see cref="JsonSerializer.IsFastPathActive"/>. Defaults to
    /// <see langword="true"/>. Set it to <see langword="false"/> to use only Jint's public API.
    /// </summary>
    public bool EnableFastPath { get; init; } = true;

    // The longest string output, in chars, before a RangeError: the longest .NET string unless a test lowers it.
    internal int MaxLength { get; init; } = JsonConstants.MaxStringLength;
}
