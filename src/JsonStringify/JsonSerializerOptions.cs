using System.Buffers;
using JsonStringify.Internals;

namespace JsonStringify;

/// <summary>
/// Settings for a <see cref="JsonSerializer"/>. An instance can be shared by any number of serializers.
/// </summary>
public sealed class JsonSerializerOptions
{
    /// <summary>The settings used when none are given.</summary>
    public static JsonSerializerOptions Default { get; } = new();

    /// <summary>
    /// The pool that the chunks of string results are rented from and returned to: a call whose result is longer than
    /// 4,096 chars rents a chunk each time the text so far outgrows what it has, each about as long as all the text
    /// before it and at most 1M chars, and gives them all back before it returns; shorter results rent nothing.
    /// Defaults to a process-wide pool of the library's own, which keeps its arrays on the pinned object heap, away
    /// from the large object heap where long result strings are made (arrays there between calls made the results
    /// land in fresh memory more often); it keeps at most 8 idle arrays of each length, 32 MB in all. Supply your own
    /// to share a pool with the rest of your host or to bound what it keeps.
    /// </summary>
    /// <exception cref="ArgumentNullException">The value is <see langword="null"/>.</exception>
    public ArrayPool<char> CharPool
    {
        get;
        init => field = value ?? throw new ArgumentNullException(nameof(value));
    } = ResultChunkPool.Instance;

    /// <summary>
    /// Whether Jint's internals may be used, which is much faster: plain objects and dense arrays are then read, and
    /// toJSON and replacer functions called, as Jint's own serializer does. The internals are self-tested once per
    /// process and the public API is used when they do not match this Jint version, so the output is the same either
    /// way; see <see cref="JsonSerializer.IsFastPathActive"/>. Defaults to <see langword="true"/>. Set it to
    /// <see langword="false"/> to use Jint's public API, and its internals only for the host conventions it does not
    /// reach (see <see cref="JsonSerializer.FastPathDisabledReason"/>).
    /// </summary>
    public bool EnableFastPath { get; init; } = true;

    /// <summary>The parts of the fast path that may be used; the test suite turns them off one at a time.</summary>
    internal JintAssumption FastPathAssumptions { get; init; } = JintAssumption.All;

    /// <summary>
    /// The deepest nesting of objects and arrays; one level more is a <c>RangeError</c> ("Maximum call stack size
    /// exceeded", as V8 words it), which scripts can catch. The walk uses no thread stack per level, so this bounds
    /// only memory: the default, 2,000,000, lets a million-deep document through.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is less than 1.</exception>
    public int MaxDepth
    {
        get;
        init => field = value >= 1 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "MaxDepth must be at least 1.");
    } = JsonConstants.DefaultMaxDepth;

    /// <summary>
    /// The longest output, in UTF-16 chars (into a <see cref="System.Text.Json.Utf8JsonWriter"/>, in the bytes written
    /// to it); more is a <c>RangeError</c> ("Invalid string length"), raised as soon as
    /// the limit is passed, or as soon as an array's length is read when even its shortest text (2 × length + 1 chars)
    /// cannot fit. Whatever this says, a result that is a JavaScript string (the
    /// <see cref="JsonSerializer.Serialize(Jint.Native.JsValue)"/> overloads, and so <c>JSON.stringify</c> in scripts)
    /// stops at the longest JavaScript string, 536,870,888 chars as in V8 and Jint;
    /// <see cref="JsonSerializer.SerializeToString"/> at the longest .NET string (1,073,741,791 chars). The streaming
    /// overloads have no other limit. Defaults to no limit.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is less than 1.</exception>
    public long MaxLength
    {
        get;
        init => field = value >= 1 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "MaxLength must be at least 1.");
    } = long.MaxValue;
}
