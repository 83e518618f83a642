using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// Writes into a caller's <see cref="Utf8JsonWriter"/> whose encoder is the default one the same bytes that
/// <see cref="Utf8JsonWriterOutput"/> makes it write token by token, with a few calls instead of one per token. The
/// root's own tokens go through the writer, which lays them out where it stands (after a property name, as an element
/// of the caller's array, at its root): a value that is not a container; or a container's start, its first property
/// name and its end. What is between is made as text by a <see cref="JsonWriter"/> that escapes as the writer's
/// encoder does (<see cref="DefaultEncoderEscaper"/>) and lays out lines as the writer does (its NewLine, IndentSize ×
/// IndentCharacter, from the writer's depth); it goes into a pooled buffer as UTF-8, and into the writer with one
/// <c>WriteRawValue</c>, which the writer takes as the container's one member or element.
/// </summary>
internal readonly struct EncodedTextOutput : IJsonOutput<EncodedTextOutput>
{
    private readonly State _state;

    private EncodedTextOutput(State state) => _state = state;

    /// <summary>
    /// Whether the writer escapes and lays out as this output does: its encoder is the default one (and the escaper's
    /// check against the writer at first use passed), and if it indents, it indents by at least one char (a
    /// <see cref="JsonWriter"/> breaks lines only where it indents).
    /// </summary>
    public static bool CanWriteInto(Utf8JsonWriter writer)
    {
        JsonWriterOptions options = writer.Options;
        return (options.Encoder is null || ReferenceEquals(options.Encoder, JavaScriptEncoder.Default))
            && !(options.Indented && options.IndentSize == 0)
            && DefaultEncoderEscaper.IsAvailable;
    }

    public int Depth => _state.Depth;

    // The writer's bytes since the call started, and the text not yet in it.
    public long Length => _state.Tokens.Length + (_state.InText ? _state.Text.Length : 0);

    public bool IsOverLimit => Length > _state.MaxLength;

    // Its quoted names are the writer's (ShapeLayout.EncodedKeys).
    public static bool QuotesNamesForTheDefaultEncoder => true;

    public static EncodedTextOutput Create() => new(new State());

    public void Start(object? destination, string gap, long maxLength)
    {
        _state.Tokens.Start(destination, gap, maxLength);
        var writer = Unsafe.As<Utf8JsonWriter>(destination)!;
        JsonWriterOptions options = writer.Options;
        int indentSize = options.Indented ? options.IndentSize : 0;
        if (_state.Gap.Length != indentSize || (indentSize != 0 && _state.Gap[0] != options.IndentCharacter))
        {
            _state.Gap = new string(options.IndentCharacter, indentSize);
        }

        _state.Writer = writer;
        _state.MaxLength = maxLength;
        _state.Depth = 0;
    }

    public void Complete()
    {
        Debug.Assert(_state.Depth == 0 && !_state.InText, "every container was closed");
        _state.Tokens.Complete();
    }

    public void Reset()
    {
        EndText();
        _state.Tokens.Reset();
        _state.Writer = null;
    }

    public void WriteNull()
    {
        if (_state.InText)
        {
            _state.Text.WriteNull();
            return;
        }

        _state.Tokens.WriteNull();
    }

    public void WriteBoolean(bool value)
    {
        if (_state.InText)
        {
            _state.Text.WriteBoolean(value);
            return;
        }

        _state.Tokens.WriteBoolean(value);
    }

    public void WriteNumber(double value)
    {
        if (_state.InText)
        {
            _state.Text.WriteNumber(value);
            return;
        }

        _state.Tokens.WriteNumber(value);
    }

    public void WriteString(string value)
    {
        if (!_state.InText)
        {
            _state.Tokens.WriteString(value);
            return;
        }

        _state.Text.WriteEncodedString(value);
    }

    public void WriteRaw(string text)
    {
        if (!_state.InText)
        {
            _state.Tokens.WriteRaw(text);
            return;
        }

        WriteRawInText(text);
    }

    public void StartObject() => Open(array: false);

    public void WritePropertyName(string name, bool first)
    {
        if (!_state.InText)
        {
            WriteFirstName(name);
            return;
        }

        _state.Text.WriteEncodedPropertyName(name, first);
    }

    public void WriteQuotedPropertyName(string quotedWithColon, JsValue key, bool first)
    {
        if (!_state.InText)
        {
            WriteFirstName(key.ToString());
            return;
        }

        _state.Text.WriteQuotedPropertyName(quotedWithColon, first);
    }

    public void EndObject(bool empty) => Close(array: false, empty);

    public void StartArray() => Open(array: true);

    public void WriteSeparator(bool first)
    {
        if (!_state.InText)
        {
            Debug.Assert(_state.Depth == 1 && first, "the root array's first element starts the text");
            StartText();
        }

        _state.Text.WriteSeparator(first);
    }

    public void EndArray(bool empty) => Close(array: true, empty);

    public void WriteEmptyArray()
    {
        if (_state.InText)
        {
            _state.Text.WriteEmptyArray();
            return;
        }

        _state.Tokens.WriteEmptyArray();
    }

    public void WriteEmptyObject()
    {
        if (_state.InText)
        {
            _state.Text.WriteEmptyObject();
            return;
        }

        _state.Tokens.WriteEmptyObject();
    }

    // A container's start: below the root, text; the root's own, through the writer.
    private void Open(bool array)
    {
        if (_state.InText)
        {
            if (array)
            {
                _state.Text.StartArray();
            }
            else
            {
                _state.Text.StartObject();
            }
        }
        else
        {
            Debug.Assert(_state.Depth == 0, "below the root, every token is text");
            if (array)
            {
                _state.Tokens.StartArray();
            }
            else
            {
                _state.Tokens.StartObject();
            }
        }

        _state.Depth++;
    }

    // A container's end: below the root, text; the root's, after the text, through the writer.
    private void Close(bool array, bool empty)
    {
        _state.Depth--;
        if (_state.Depth != 0)
        {
            if (array)
            {
                _state.Text.EndArray(empty);
            }
            else
            {
                _state.Text.EndObject(empty);
            }

            return;
        }

        WriteText();
        if (array)
        {
            _state.Tokens.EndArray(empty);
        }
        else
        {
            _state.Tokens.EndObject(empty);
        }
    }

    // The root object's first property name goes through the writer (which escapes it with its encoder, and writes
    // what an unpaired surrogate becomes); its value and every member after it are text.
    private void WriteFirstName(string name)
    {
        Debug.Assert(_state.Depth == 1, "below the root, every token is text");
        _state.Writer!.WritePropertyName(name);
        StartText();
    }

    // The text starts inside the root container, indented as the writer's lines there are, with what is left of the
    // call's limit.
    private void StartText()
    {
        Utf8JsonWriter writer = _state.Writer!;
        _state.Buffer = PooledBufferWriter.Rent();

        // Room for as much as the last text took, when it went through the buffer, so that values of one size do not
        // grow it step by step.
        if (_state.LastTextLength != 0)
        {
            _state.Buffer.GetSpan(_state.LastTextLength);
        }

        _state.Text.Start(
            _state.Sink.Start(_state.Buffer),
            _state.Gap,
            _state.MaxLength - _state.Tokens.Length,
            writer.Options.NewLine,
            writer.CurrentDepth);
        _state.InText = true;
    }

    // The text, complete, into the writer as the root container's one value; the container's end follows.
    private void WriteText()
    {
        if (!_state.InText)
        {
            return;
        }

        // A text that never left the JsonWriter's buffer goes in from there, the writer transcoding it.
        if (_state.Text.TryGetWholeText(out ReadOnlySpan<char> chars))
        {
            _state.LastTextLength = 0;
            _state.Writer!.WriteRawValue(chars, skipInputValidation: true);
            EndText();
            return;
        }

        _state.Text.Complete();
        _state.Sink.Complete();
        ReadOnlySpan<byte> text = _state.Buffer!.WrittenSpan;
        _state.LastTextLength = text.Length;
        _state.Writer!.WriteRawValue(text, skipInputValidation: true);
        EndText();
    }

    // Drops the text, written or not, and gives its buffer back.
    private void EndText()
    {
        if (_state.Buffer is not null)
        {
            PooledBufferWriter.Return(_state.Buffer);
            _state.Buffer = null;
        }

        _state.Sink.Release();
        _state.Text.Reset();
        _state.InText = false;
    }

    // Raw JSON below the root, as the token output writes it: checked as the writer checks it unless the writer skips
    // validation; into an indented writer, laid out by the writer when the token output has the writer lay it out. A
    // text with an unpaired surrogate (a char, not an escape) goes through the writer too, which refuses it as it
    // refuses it from the token output; our transcoder would write U+FFFD.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteRawInText(string text)
    {
        JsonWriterOptions options = _state.Writer!.Options;
        if ((options.SkipValidation || (options.Indented && !Utf8JsonWriterOutput.IsLaidOutByWriter(text, options)))
            && !Utf8JsonWriterOutput.HasUnpairedSurrogate(text))
        {
            _state.Text.WriteRaw(text);
            return;
        }

        // A writer of its own, at its root, with the caller's options, makes the text; its lines are then indented
        // as deep as the text's place here (no line break can be inside a string the writer wrote).
        var buffer = new ArrayBufferWriter<byte>();
        using (var scratch = new Utf8JsonWriter(buffer, options))
        {
            Utf8JsonWriterOutput tokens = Utf8JsonWriterOutput.Create();
            tokens.Start(scratch, string.Empty, long.MaxValue);
            tokens.WriteRaw(text);
            tokens.Reset();
        }

        string written = Encoding.UTF8.GetString(buffer.WrittenSpan);
        if (options.Indented && _state.Text.Depth != 0)
        {
            var indentation = new StringBuilder(options.NewLine);
            indentation.Insert(indentation.Length, _state.Gap, _state.Text.Depth);
            written = written.Replace(options.NewLine, indentation.ToString(), StringComparison.Ordinal);
        }

        _state.Text.WriteRaw(written);
    }

    /// <summary>The caller's writer; the output of the root's tokens; the text between them, and where it goes.</summary>
    private sealed class State
    {
        public readonly Utf8JsonWriterOutput Tokens = Utf8JsonWriterOutput.Create();
        public readonly JsonWriter Text = new();
        public readonly BufferWriterSink Sink = new();

        public PooledBufferWriter? Buffer;

        // The length of the last text written, in bytes.
        public int LastTextLength;

        // The text has started: every token goes to it until the root container's end.
        public bool InText;

        // One level of the writer's indentation (IndentSize × IndentCharacter), or none for a compact writer.
        public string Gap = string.Empty;

        public Utf8JsonWriter? Writer;
        public long MaxLength;
        public int Depth;
    }
}
