namespace JsonStringify.Internals;

/// <summary>Writes to a <see cref="TextWriter"/> as chars.</summary>
internal sealed class TextWriterSink : TextSink
{
    private TextWriter? _writer;

    public TextWriterSink Start(TextWriter writer)
    {
        _writer = writer;
        return this;
    }

    public override void Release()
    {
        base.Release();
        _writer = null;
    }

    protected override void WriteCore(ReadOnlySpan<char> chars) => _writer!.Write(chars);
}
