using System.Globalization;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using JsonStringify.Internals;

namespace JsonStringify.Benchmarks;

/// <summary>
/// The writer's number formatting alone, per number: <c>NumberFormatter.Format</c> (Number::toString) against .NET's
/// shortest round-trip formatting (<c>double.TryFormat</c>, the baseline), and <c>ShortestDecimal.Compute</c>, the
/// digits without their layout. Over the first 10,000 numbers of a document that are not whole numbers below 2^53
/// (those have a path of their own), in document order.
/// </summary>
[Config(typeof(BenchmarkConfig))]
public class NumberFormattingBenchmarks
{
    private const int Count = 10_000;
    private const double MaxExactInteger = 9007199254740992d;
    private readonly char[] _buffer = new char[JsonConstants.NumberBufferLength];
    private double[] _values = [];

    [Params("canada", "corpus/numbers", "corpus/geojson-streets")]
    public string Document { get; set; } = "";

    [GlobalSetup]
    public void Setup()
    {
        var values = new List<double>();
        using (JsonDocument document = JsonDocument.Parse(Corpus.Read(Corpus.Find(Document))))
        {
            Collect(document.RootElement, values);
        }

        if (values.Count < Count)
        {
            throw new InvalidOperationException($"{Document} has {values.Count} numbers that are not whole, fewer than {Count}.");
        }

        _values = [.. values.Take(Count)];
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public int Runtime()
    {
        int total = 0;
        foreach (double value in _values)
        {
            value.TryFormat(_buffer, out int written, provider: CultureInfo.InvariantCulture);
            total += written;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public int Format()
    {
        int total = 0;
        foreach (double value in _values)
        {
            total += NumberFormatter.Format(value, _buffer);
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public ulong ShortestDigits()
    {
        ulong total = 0;
        foreach (double value in _values)
        {
            total += ShortestDecimal.Compute(Math.Abs(value)).Digits;
        }

        return total;
    }

    private static void Collect(JsonElement element, List<double> values)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Number:
                double value = element.GetDouble();
                if (!(Math.Abs(value) < MaxExactInteger && Math.Floor(value) == value))
                {
                    values.Add(value);
                }

                break;
            case JsonValueKind.Array:
                foreach (JsonElement item in element.EnumerateArray())
                {
                    Collect(item, values);
                }

                break;
            case JsonValueKind.Object:
                foreach (JsonProperty property in element.EnumerateObject())
                {
                    Collect(property.Value, values);
                }

                break;
        }
    }
}
