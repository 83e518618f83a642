using Jint;
using Jint.Native;
using JsonStringify.Internals;

namespace JsonStringify.Benchmarks;

/// <summary>
/// The walk of this build's fast path with nothing written (<c>--ab ... --walk-floor</c>): the same walker, reader and
/// decisions as a real call, handed to an output that only counts what it is given, the way the text output would see
/// it. No number is formatted and no string's chars are read or copied; a string is touched only for its length. The
/// entry's work once per call (the engine gate, the constraints) is left out as well. What
/// such a call costs is what the walk and Jint's data take before any text is made: the least time a call can take
/// while reading Jint's objects as the fast path reads them.
/// </summary>
internal static class WalkFloor
{
    /// <summary>A side for <c>--ab</c>: one walk of the value per call; returns what the output counted.</summary>
    public static Func<JsValue, long> Side(Engine engine)
    {
        var owner = new JsonSerializer(engine);
        if (!owner.IsFastPathActive)
        {
            throw new InvalidOperationException("The fast path is off for this Jint: there is no fast walk to measure.");
        }

        return value =>
        {
            Walker<CountingOutput> walker = WalkerPool.Rent<CountingOutput>();
            try
            {
                walker.Start(
                    owner, replacer: null, propertyList: null, gap: string.Empty, maxLength: long.MaxValue, JsonConstants.DefaultMaxDepth);
                return walker.SerializeRoot(value) ? walker.Output.Length : 0;
            }
            finally
            {
                walker.ReturnShapeCache();
                WalkerPool.Return(walker);
            }
        };
    }

    // An output that adds up how long the compact text of what it is handed would be, counting each number as one char.
    private readonly struct CountingOutput : IJsonOutput<CountingOutput>
    {
        private readonly Counts _counts;

        private CountingOutput(Counts counts) => _counts = counts;

        public static bool NeedsPlainNames => false;

        public int Depth => _counts.Depth;

        public long Length => _counts.Length;

        public bool IsOverLimit => false;

        public static CountingOutput Create() => new(new Counts());

        public int LimitDepth(int maxDepth) => maxDepth;

        public void Start(string gap, long maxLength)
        {
            _counts.Depth = 0;
            _counts.Length = 0;
        }

        public void Complete()
        {
        }

        public void Reset()
        {
        }

        public void WriteLiteral(JsonLiteral literal) => _counts.Length += literal == JsonLiteral.False ? 5 : 4;

        public void WriteNumber(double value) => _counts.Length++;

        public void WriteErraticNumber(double value) => _counts.Length++;

        public void WriteString(string value) => _counts.Length += value.Length + 2;

        public void WriteRaw(string text) => _counts.Length += text.Length;

        public void StartObject()
        {
            _counts.Depth++;
            _counts.Length++;
        }

        public void WritePropertyName(string name, bool first) => _counts.Length += name.Length + (first ? 3 : 4);

        public void WriteQuotedPropertyName(string quotedWithColon, string? name, bool first) =>
            _counts.Length += quotedWithColon.Length + (first ? 0 : 1);

        public void EndObject(bool empty)
        {
            _counts.Depth--;
            _counts.Length++;
        }

        public void StartArray()
        {
            _counts.Depth++;
            _counts.Length++;
        }

        public void WriteSeparator(bool first) => _counts.Length += first ? 0 : 1;

        public void EndArray(bool empty)
        {
            _counts.Depth--;
            _counts.Length++;
        }

        public void WriteEmptyArray() => _counts.Length += 2;

        public void WriteEmptyObject() => _counts.Length += 2;
    }

    // The state a CountingOutput shares with its copies.
    private sealed class Counts
    {
        public int Depth;
        public long Length;
    }
}
