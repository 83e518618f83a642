using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace JsonStringify.Internals;

/// <summary>
/// What starts a line of indented JSON: a line break, then the indentation unit (JSON.stringify's gap, or a
/// Utf8JsonWriter's IndentSize × IndentCharacter) once per level. Every output builds its lines here.
/// </summary>
internal static class Indentation
{
    /// <summary>The length of <see cref="Write"/>'s text.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Length(string lineBreak, string unit, int levels) => lineBreak.Length + (levels * unit.Length);

    /// <summary>
    /// Writes <paramref name="lineBreak"/> and <paramref name="levels"/> times <paramref name="unit"/> at the start of
    /// <paramref name="destination"/>; returns how many chars that is.
    /// </summary>
    public static int Write(Span<char> destination, string lineBreak, string unit, int levels)
    {
        Debug.Assert(levels >= 0, "no line is indented less than the root");
        int length = Length(lineBreak, unit, levels);
        lineBreak.CopyTo(destination);
        Span<char> indentation = destination[lineBreak.Length..length];
        if (unit.Length == 1)
        {
            indentation.Fill(unit[0]);
            return length;
        }

        for (int at = 0; at < indentation.Length; at += unit.Length)
        {
            unit.CopyTo(indentation[at..]);
        }

        return length;
    }

    /// <summary><see cref="Write"/>'s text as a string.</summary>
    public static string Create(string lineBreak, string unit, int levels) =>
        string.Create(Length(lineBreak, unit, levels), (lineBreak, unit, levels), static (destination, line) =>
            Write(destination, line.lineBreak, line.unit, line.levels));
}
