using System.Runtime.CompilerServices;
using System.Text;

namespace JsonStringify.Internals;

/// <summary>
/// Writes JSON tokens, separators and indentation into one pooled <see cref="StringBuilder"/>. It never asks the
/// engine for anything: the walker hands it strings and doubles.
/// </summary>
internal sealed class JsonWriter
{
    private readonly char[] _number = new char[JsonConstants.NumberBufferLength];
    private char[] _newLine = [];
    private StringBuilder? _sb;
    private string _gap = string.Empty;
    private int _depth;
    private int _maxLength;

    /// <summary>The text written so far in this call.</summary>
    public StringBuilder Builder => _sb!;

    /// <summary>How many containers are open: the indentation level of the current line.</summary>
    public int Depth => _depth;

    /// <summary>True once the output has grown past the longest string the result may be.</summary>
    public bool IsOverLimit => _sb!.Length > _maxLength;

    public void Start(StringBuilder sb, string gap, int maxLength)
    {
        _sb = sb;
        if (gap != _gap)
        {
            _newLine = [];
        }

        _gap = gap;
        _depth = 0;
        _maxLength = maxLength;
    }

    /// <summary>Drops every reference taken for the call, so that a pooled writer pins nothing.</summary>
    public void Reset()
    {
        _sb = null;
        _depth = 0;
    }

    public void WriteNull() => _sb!.Append("null");

    public void WriteBoolean(bool value) => _sb!.Append(value ? "true" : "false");

    public void WriteRaw(string text) => _sb!.Append(text);

    public void WriteNumber(double value)
    {
        if (!double.IsFinite(value))
        {
            _sb!.Append("null");
            return;
        }

        int length = NumberFormatter.Format(value, _number);
        _sb!.Append(_number, 0, length);
    }

    public void WriteString(string value)
    {
        if (_sb!.Length + StringEscaper.MaxQuotedLength(value.Length) > _maxLength)
        {
            WriteStringChecked(value);
            return;
        }

        StringEscaper.AppendQuoted(_sb, value);
    }

    public void StartObject()
    {
        _sb!.Append('{');
        _depth++;
    }

    public void WritePropertyName(string name, bool first)
    {
        StringBuilder sb = _sb!;
        if (!first)
        {
            sb.Append(',');
        }

        if (_gap.Length != 0)
        {
            WriteNewLine();
        }

        WriteString(name);
        sb.Append(':');
        if (_gap.Length != 0)
        {
            sb.Append(' ');
        }
    }

    public void EndObject(bool empty)
    {
        _depth--;
        if (!empty && _gap.Length != 0)
        {
            WriteNewLine();
        }

        _sb!.Append('}');
    }

    public void StartArray()
    {
        _sb!.Append('[');
        _depth++;
    }

    public void WriteElementSeparator(bool first)
    {
        if (!first)
        {
            _sb!.Append(',');
        }

        if (_gap.Length != 0)
        {
            WriteNewLine();
        }
    }

    public void EndArray(bool empty)
    {
        _depth--;
        if (!empty && _gap.Length != 0)
        {
            WriteNewLine();
        }

        _sb!.Append(']');
    }

    // A newline and the indentation of the current depth, in one append from a prefix of _newLine.
    private void WriteNewLine()
    {
        int length = 1 + (_depth * _gap.Length);
        if (length > _newLine.Length)
        {
            GrowNewLine(length);
        }

        _sb!.Append(_newLine, 0, length);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void GrowNewLine(int length)
    {
        var newLine = new char[Math.Max(length, _newLine.Length * 2)];
        newLine[0] = '\n';
        for (int i = 1; i + _gap.Length <= newLine.Length; i += _gap.Length)
        {
            _gap.CopyTo(newLine.AsSpan(i));
        }

        _newLine = newLine;
    }

    // A string that could push the output past the limit is escaped in slices, so that the limit is noticed before
    // the builder grows to an impossible size.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteStringChecked(string value)
    {
        const int Slice = 1 << 16;
        StringBuilder sb = _sb!;
        sb.Append('"');
        ReadOnlySpan<char> rest = value;
        while (!rest.IsEmpty && sb.Length <= _maxLength)
        {
            int take = Math.Min(Slice, rest.Length);
            if (take < rest.Length && char.IsHighSurrogate(rest[take - 1]))
            {
                take--;
            }

            StringEscaper.AppendEscaped(sb, rest[..take]);
            rest = rest[take..];
        }

        sb.Append('"');
    }
}
