using System.Buffers.Text;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace JsonStringify.Internals;

/// <summary>
/// Writes a double as JavaScript's Number::toString does (1e+21, 1e-7, 100000000000000000000), where System.Text.Json's
/// own converter writes .NET's round-trip form (1E+21, 1E-07, 1E+20). The JsonNode output's numbers are JsonValues of
/// the double with this converter: they hold the exact double (<c>GetValue&lt;double&gt;()</c>), and
/// <c>ToJsonString()</c> writes JSON.stringify's digits, the same text as a node parsed from our string output.
/// </summary>
internal sealed class JsNumberConverter : JsonConverter<double>
{
    /// <summary>
    /// The type info of every number node. Its options only serve to configure it (no reflection), and allow any depth:
    /// System.Text.Json counts a value's depth from where the writer stands, and the writer's own MaxDepth is the
    /// limit.
    /// </summary>
    public static JsonTypeInfo<double> TypeInfo { get; } = JsonMetadataServices.CreateValueInfo<double>(
        new System.Text.Json.JsonSerializerOptions { TypeInfoResolver = JsonTypeInfoResolver.Combine(), MaxDepth = int.MaxValue },
        new JsNumberConverter());

    public override double Read(ref Utf8JsonReader reader, Type typeToConvert, System.Text.Json.JsonSerializerOptions options) =>
        reader.GetDouble();

    // A node does not know where the writer stands (after a name, or in an array), so the number goes through the
    // writer's own number paths when the writer indents (see WriteIndentedNumber).
    public override void Write(Utf8JsonWriter writer, double value, System.Text.Json.JsonSerializerOptions options) =>
        WriteNumber(writer, value, writer.Options.Indented);

    /// <summary>
    /// A finite double as a JSON number with JavaScript's digits; integers below 2^53 through the writer's own integer
    /// path, whose digits are the same. <paramref name="indented"/> is the writer's <c>Options.Indented</c>: a compact
    /// writer gets the other numbers' text raw; an indented one only through its own number paths, since
    /// <c>WriteRawValue</c> writes no line break or indentation before the value.
    /// </summary>
    public static void WriteNumber(Utf8JsonWriter writer, double value, bool indented)
    {
        Debug.Assert(double.IsFinite(value), "JSON has no NaN or infinities");
        Debug.Assert(indented == writer.Options.Indented, "the caller passes the writer's own option");
        if (NumberFormatter.IsExactInteger(value))
        {
            writer.WriteNumberValue((long)value);
            return;
        }

        Span<byte> bytes = stackalloc byte[JsonConstants.NumberBufferLength];
        int length = NumberFormatter.Format(value, bytes);

        if (indented)
        {
            WriteIndentedNumber(writer, bytes[..length]);
            return;
        }

        // Number::toString's text is always a valid JSON number: no need for the writer to parse it again.
        writer.WriteRawValue(bytes[..length], skipInputValidation: true);
    }

    /// <summary>
    /// The decimal whose text, as the writer formats a decimal (<see cref="Utf8Formatter"/>, 'G': fixed-point, trailing
    /// zeros kept), is exactly <paramref name="text"/>. Number::toString writes plain decimals from 1e-6 to below 1e21
    /// (at most 21 significant digits and 22 decimals, within a decimal's 28), and the decimal parsed from such a text
    /// keeps its digits and scale; the text written back is compared all the same, so a number the decimal cannot
    /// carry is never written with other digits. False for e-notation (1e+21, 1e-7), which a decimal never writes.
    /// </summary>
    internal static bool TryGetDecimal(ReadOnlySpan<byte> text, out decimal value)
    {
        value = 0;
        Span<byte> written = stackalloc byte[JsonConstants.NumberBufferLength];
        return !text.Contains((byte)'e')
            && decimal.TryParse(text, NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out value)
            && Utf8Formatter.TryFormat(value, written, out int length)
            && written[..length].SequenceEqual(text);
    }

    // An indented writer lays a value out itself (the comma, the line break and indentation unless a property name
    // precedes it) only in its own Write...Value methods. A plain decimal goes in as the decimal of its exact text; the
    // e-notation (and anything a decimal does not give back) parsed and written by the writer, which writes a number's
    // text as it was parsed (Utf8JsonWriterOutput.WriteParsed). Only numbers from 1e21 up and below 1e-6 pay for that
    // small document, in indented writers.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteIndentedNumber(Utf8JsonWriter writer, ReadOnlySpan<byte> text)
    {
        if (TryGetDecimal(text, out decimal value))
        {
            writer.WriteNumberValue(value);
            return;
        }

        Utf8JsonWriterOutput.WriteParsed(writer, Encoding.ASCII.GetString(text));
    }
}
