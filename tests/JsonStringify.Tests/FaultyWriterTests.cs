using System.Buffers;
using System.Text;
using Jint;
using Jint.Native;

namespace JsonStringify.Tests;

/// <summary>
/// Destinations that break their contract or fail: an <see cref="IBufferWriter{T}"/> whose GetSpan gives less room
/// than it was asked for (none, or a few bytes where a 3- or 4-byte sequence is next, at once or after some calls) is
/// an <see cref="InvalidOperationException"/> at the first short span, never a loop; a stream or text writer that
/// throws passes its exception on unchanged. Either way the serializer's next call is exact.
/// </summary>
public class FaultyWriterTests
{
    // How many short spans a writer hands out before the test fails it: the sink must stop at the first one.
    private const int ShortSpansTolerated = 100;

    // A document of about 550 KB, which fills the writer's buffer some 30 times over: ASCII, escapes, long
    // strings that go into UTF-8 in slices, and chars of 2, 3 and 4 bytes.
    private const string Document = """
        ({
          ascii: 'plain text',
          escapes: 'quote " backslash \\ newline \n tab \t',
          two: 'é'.repeat(300), three: '€'.repeat(300), four: '😀'.repeat(300),
          long: 'abcdefghij'.repeat(200) + '€' + 'klmnopqrst'.repeat(200),
          mixed: '€'.repeat(700) + 'x'.repeat(800) + 'é'.repeat(700) + '\n'.repeat(10) + 'y'.repeat(700) + '😀',
          rows: Array.from({length: 12000}, (_, i) => ({id: i, name: 'row ' + i, mark: i % 3 === 0 ? '€😀é' : null}))
        })
        """;

    private static readonly UTF8Encoding s_strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    // Values whose first bytes need room for a multi-byte char at once, or after a run of ASCII.
    public static TheoryData<string> MultiByteValues => new()
    {
        "'é'", "'€'", "'😀'", "'a😀'", "'ab€'", "'abc😀'",
        "'x'.repeat(1000) + '😀'", "['€', '😀']", "({'é': '😀'})",
    };

    public static TheoryData<int, int> ShortSpanRows
    {
        get
        {
            var rows = new TheoryData<int, int>();
            foreach (int length in new[] { 0, 1, 2, 3 })
            {
                foreach (int goodCalls in new[] { 0, 1, 2, 5, 20 })
                {
                    rows.Add(length, goodCalls);
                }
            }

            return rows;
        }
    }

    // An empty span, or 1 to 3 bytes where the next char needs 2, 3 or 4: a sink that asked again would never end.
    [Theory]
    [MemberData(nameof(MultiByteValues))]
    public void AnEmptyOrShortSpanIsAnInvalidOperationExceptionAtOnce(string script)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("(" + script + ")");
        foreach (int length in new[] { 0, 1, 2, 3 })
        {
            var writer = new ShortSpanWriter(length, goodCalls: 0);

            var e = Assert.Throws<InvalidOperationException>(() => serializer.Serialize(value, writer));

            Assert.Contains($"returned a span of {length} bytes", e.Message, StringComparison.Ordinal);
            Assert.Equal(1, writer.ShortSpans);
            AssertNextCallIsExact(serializer, value);
        }
    }

    // The writer gives what is asked for a while, then too little: the call stops at the first short span, having
    // written a prefix of the document.
    [Theory]
    [MemberData(nameof(ShortSpanRows))]
    public void AWriterThatFailsAfterSomeCallsStopsTheCallAtTheFirstShortSpan(int spanLength, int goodCalls)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(Document);
        byte[] expected = s_strictUtf8.GetBytes(serializer.SerializeToString(value)!);
        var honest = new ShortSpanWriter(spanLength, goodCalls: int.MaxValue);
        Assert.True(serializer.Serialize(value, honest));
        Assert.Equal(expected, honest.WrittenSpan.ToArray());
        Assert.True(honest.Calls > goodCalls + 1, "the document needs more spans than the writer gives in full");
        var writer = new ShortSpanWriter(spanLength, goodCalls);

        Assert.Throws<InvalidOperationException>(() => serializer.Serialize(value, writer));

        Assert.Equal(goodCalls + 1, writer.Calls);
        Assert.Equal(1, writer.ShortSpans);
        Assert.True(expected.AsSpan().StartsWith(writer.WrittenSpan), "what was written is a prefix of the document");
        AssertNextCallIsExact(serializer, value);
    }

    // A writer whose GetSpan is its GetMemory's span, as many are written: a short Memory is as short a span.
    [Theory]
    [InlineData(0, 0)]
    [InlineData(3, 0)]
    [InlineData(0, 3)]
    [InlineData(2, 3)]
    public void AMemoryBasedWriterThatGivesTooLittleIsAnInvalidOperationException(int memoryLength, int goodCalls)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(Document);
        var writer = new ShortMemoryWriter(memoryLength, goodCalls);

        var e = Assert.Throws<InvalidOperationException>(() => serializer.Serialize(value, writer));

        Assert.Contains(nameof(ShortMemoryWriter), e.Message, StringComparison.Ordinal);
        Assert.Equal(goodCalls + 1, writer.Calls);
        AssertNextCallIsExact(serializer, value);
    }

    // With a replacer and a space, through the installed JSON.stringify's engine: the same failure, the same recovery.
    [Fact]
    public void AShortSpanWithAReplacerAndASpaceFailsAsPromptly()
    {
        using Engine engine = Js.Ours();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(Document);
        JsValue replacer = engine.Evaluate("(function (k, v) { return typeof v === 'number' ? v * 2 : v; })");
        JsValue space = new JsString("\t");
        string expected = serializer.SerializeToString(value, replacer, space)!;
        var writer = new ShortSpanWriter(spanLength: 1, goodCalls: 3);

        Assert.Throws<InvalidOperationException>(() => serializer.Serialize(value, replacer, space, writer));

        Assert.Equal(4, writer.Calls);
        var good = new ArrayBufferWriter<byte>();
        Assert.True(serializer.Serialize(value, replacer, space, good));
        Assert.Equal(expected, s_strictUtf8.GetString(good.WrittenSpan));
        Assert.Equal(expected, Js.Run(engine, "JSON.stringify(" + Document + ", function (k, v) { return typeof v === 'number' ? v * 2 : v; }, '\\t')"));
    }

    // The failure leaves a call nested inside a string-returning one: every chunk the outer call rented goes back.
    [Fact]
    public void AShortSpanInANestedCallGivesBackTheOuterCallsChunks()
    {
        var pool = new CountingCharPool();
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { CharPool = pool });
        var writer = new ShortSpanWriter(spanLength: 0, goodCalls: 2);
        engine.SetValue("writeShort", new Func<JsValue, bool>(v => serializer.Serialize(v, writer)));
        JsValue value = engine.Evaluate("({ before: 'x'.repeat(19999) + '\\n', inner: { toJSON: function () { writeShort(" + Document + "); } } })");

        Assert.Throws<InvalidOperationException>(() => serializer.SerializeToString(value));

        Assert.True(pool.Rented > 0, "the outer call had rented chunks");
        Assert.Equal(pool.Rented, pool.Returned);
        Assert.Equal(1, writer.ShortSpans);
        AssertNextCallIsExact(serializer, engine.Evaluate(Document));
    }

    // The other sinks have no room to ask for: a stream or text writer that throws ends the call with its exception.
    [Theory]
    [InlineData(0)]
    [InlineData(2)]
    public async Task AStreamOrTextWriterThatThrowsPassesItsExceptionOn(int goodWrites)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(Document);
        string expected = serializer.SerializeToString(value)!;

        var stream = new FailingStream(goodWrites);
        Assert.Same(stream.Failure, Assert.Throws<IOException>(() => serializer.Serialize(value, stream)));
        var asyncStream = new FailingStream(goodWrites);
        Assert.Same(asyncStream.Failure, await Assert.ThrowsAsync<IOException>(() => serializer.SerializeAsync(value, asyncStream)));
        var text = new FailingTextWriter(goodWrites);
        Assert.Same(text.Failure, Assert.Throws<IOException>(() => serializer.Serialize(value, text)));

        using var bytes = new MemoryStream();
        Assert.True(serializer.Serialize(value, bytes));
        Assert.Equal(expected, s_strictUtf8.GetString(bytes.ToArray()));
        using var chars = new StringWriter();
        Assert.True(serializer.Serialize(value, chars));
        Assert.Equal(expected, chars.ToString());
    }

    private static void AssertNextCallIsExact(JsonSerializer serializer, JsValue value)
    {
        string expected = serializer.SerializeToString(value)!;
        var writer = new ArrayBufferWriter<byte>();
        Assert.True(serializer.Serialize(value, writer));
        Assert.Equal(expected, s_strictUtf8.GetString(writer.WrittenSpan));
    }

    // A writer that hands out segments of a fixed size whatever it is asked for (less than the contract says, but
    // enough to move on: a UTF-8 sequence of 4 bytes) is used as it is, and the output is the string result's UTF-8,
    // byte for byte, long runs of ASCII (which go straight into the sink where the room holds two escaped chars)
    // included.
    [Theory]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(8)]
    [InlineData(11)]
    [InlineData(12)]
    [InlineData(13)]
    [InlineData(64)]
    [InlineData(4096)]
    public void AWriterOfSmallFixedSegmentsGetsExactOutput(int segmentLength)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue document = engine.Evaluate(Document);
        byte[] expected = s_strictUtf8.GetBytes(serializer.SerializeToString(document)!);
        var segmented = new SegmentWriter(segmentLength);
        Assert.True(serializer.Serialize(document, segmented));
        Assert.Equal(expected, segmented.WrittenSpan.ToArray());
    }

    /// <summary>Gives memory and spans of at most <c>segmentLength</c> bytes, whatever it is asked for.</summary>
    private sealed class SegmentWriter(int segmentLength) : IBufferWriter<byte>
    {
        private readonly ArrayBufferWriter<byte> _inner = new();

        public ReadOnlySpan<byte> WrittenSpan => _inner.WrittenSpan;

        public void Advance(int count) => _inner.Advance(count);

        public Memory<byte> GetMemory(int sizeHint = 0) => _inner.GetMemory(segmentLength)[..segmentLength];

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }

    /// <summary>
    /// Gives exactly what is asked for on its first <c>goodCalls</c> GetMemory or GetSpan calls, then <c>spanLength</c>
    /// bytes; it fails the test rather than hand out short spans for ever.
    /// </summary>
    private sealed class ShortSpanWriter(int spanLength, int goodCalls) : IBufferWriter<byte>
    {
        private readonly ArrayBufferWriter<byte> _inner = new();

        public int Calls { get; private set; }

        public int ShortSpans { get; private set; }

        public ReadOnlySpan<byte> WrittenSpan => _inner.WrittenSpan;

        public void Advance(int count) => _inner.Advance(count);

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            Calls++;
            if (Calls <= goodCalls)
            {
                return _inner.GetMemory(sizeHint)[..sizeHint];
            }

            ShortSpans++;
            Assert.True(ShortSpans <= ShortSpansTolerated, "the sink keeps asking a writer that gives too little");
            return _inner.GetMemory(sizeHint)[..spanLength];
        }

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }

    /// <summary>
    /// Serves GetSpan from GetMemory, which gives <c>memoryLength</c> bytes after <c>goodCalls</c> calls.
    /// </summary>
    private sealed class ShortMemoryWriter(int memoryLength, int goodCalls) : IBufferWriter<byte>
    {
        private readonly ArrayBufferWriter<byte> _inner = new();

        public int Calls { get; private set; }

        public void Advance(int count) => _inner.Advance(count);

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            Calls++;
            Assert.True(Calls <= goodCalls + ShortSpansTolerated, "the sink keeps asking a writer that gives too little");
            Memory<byte> memory = _inner.GetMemory(sizeHint);
            return Calls <= goodCalls ? memory : memory[..memoryLength];
        }

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }

    /// <summary>A write-only stream whose writes throw <see cref="Failure"/> after <c>goodWrites</c> of them.</summary>
    private sealed class FailingStream(int goodWrites) : Stream
    {
        private int _writes;

        public IOException Failure { get; } = new("the disk is full");

        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => Count();

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            Count();
            return ValueTask.CompletedTask;
        }

        private void Count()
        {
            if (++_writes > goodWrites)
            {
                throw Failure;
            }
        }
    }

    /// <summary>A text writer whose writes throw <see cref="Failure"/> after <c>goodWrites</c> of them.</summary>
    private sealed class FailingTextWriter(int goodWrites) : TextWriter
    {
        private int _writes;

        public IOException Failure { get; } = new("the pipe is closed");

        public override Encoding Encoding => Encoding.UTF8;

        public override void Write(char value) => Count();

        public override void Write(ReadOnlySpan<char> buffer) => Count();

        private void Count()
        {
            if (++_writes > goodWrites)
            {
                throw Failure;
            }
        }
    }
}
