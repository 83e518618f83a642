using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Runtime;
using System.Runtime.Loader;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// Best calls side by side in one process: this build of JsonStringify against Jint's serializer, or against another
/// build of JsonStringify (a baseline assembly loaded into a context of its own, which shares Jint with this one). The
/// documents run one after another in one process, as a service serves them, so both sides' code is compiled with the
/// profile of every document before; each document gets a fresh engine. The two sides alternate in batches of 10
/// calls, the side that goes first swapping every batch, until the document's time is spent; each call is timed on
/// its own, and the table shows each side's best call and the ratio of this build's to the other's. Run it with
/// <c>dotnet JsonStringify.Benchmarks.dll --ab jint</c> (see <see cref="Usage"/>).
/// </summary>
public static class AbRunner
{
    public const string Usage = """
        --ab jint|<path of another JsonStringify.dll> [--seconds S] [--string] [--space N] [--compact] [documents]
          This build against Jint's serializer, or against another build of JsonStringify, in alternating batches of
          10 calls in one process: each side's best call per document, their ratio (this build ÷ the other) and the
          median ratio, as a Markdown table. Documents are names under testdata/ ("twitter", "corpus/lockfile"), or
          "built:<name>" for the document rebuilt in script by assignment (testdata/rebuild.js); by default the wider
          corpus, the classic three, then four built documents, in that order. --seconds is the time per document (2),
          --string measures the string result instead of UTF-8 into a reused ArrayBufferWriter, --space indents, and
          --compact runs one forced compacting collection after each document is made, so that its objects lie in
          the order they were made, without the garbage of JSON.parse between them.
          Example: dotnet JsonStringify.Benchmarks.dll --ab /tmp/before/JsonStringify.dll --compact built:corpus/joblist
        """;

    private const string BuiltPrefix = "built:";
    private const int Batch = 10;

    private static readonly string[] s_built = ["built:corpus/joblist", "built:citm_catalog", "built:twitter", "built:corpus/events"];

    /// <summary>Runs the comparison that <paramref name="args"/> ask for; the process's exit code.</summary>
    public static int Run(string[] args)
    {
        if (args.Length == 0 || args.Contains("--help") || args.Contains("-h"))
        {
            Console.WriteLine(Usage);
            return args.Length == 0 ? 1 : 0;
        }

        string other = args[0];
        double seconds = 2;
        bool toString = false;
        int space = 0;
        bool compact = false;
        var documents = new List<string>();
        for (int i = 1; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--seconds":
                    seconds = double.Parse(args[++i], CultureInfo.InvariantCulture);
                    break;
                case "--string":
                    toString = true;
                    break;
                case "--space":
                    space = int.Parse(args[++i], CultureInfo.InvariantCulture);
                    break;
                case "--compact":
                    compact = true;
                    break;
                default:
                    documents.Add(args[i]);
                    break;
            }
        }

        if (documents.Count == 0)
        {
            documents.AddRange(Corpus.Wide.Concat(Corpus.Files).Select(Corpus.Name).Concat(s_built));
        }

        // Every name, and the baseline, is checked before anything is measured.
        string? unknown = documents.FirstOrDefault(d => !Corpus.All.Any(file => Corpus.Name(file) == (d.StartsWith(BuiltPrefix, StringComparison.Ordinal) ? d[BuiltPrefix.Length..] : d)));
        if (unknown is not null)
        {
            Console.Error.WriteLine($"No document named '{unknown}'. Documents are {string.Join(", ", Corpus.All.Select(Corpus.Name))}, each also as built:<name>.");
            return 1;
        }

        if (other != "jint" && !File.Exists(other))
        {
            Console.Error.WriteLine($"No assembly at '{other}': give 'jint', or the path of another build's JsonStringify.dll.");
            return 1;
        }

        Func<Engine, JsValue, Func<JsValue, long>> makeOther = other == "jint" ? Jint(toString) : Baseline(other, toString);
        string otherLabel = other == "jint" ? "Jint 4.18.0" : $"baseline ({Path.GetFileName(Path.GetDirectoryName(Path.GetFullPath(other)))})";
        Console.WriteLine($"Side by side: this build against {otherLabel}, {seconds.ToString(CultureInfo.InvariantCulture)} s per document, "
            + $"batches of {Batch} calls, output {(toString ? "string" : "UTF-8 into a reused ArrayBufferWriter")}, space {space}, "
            + $"{(compact ? "each document compacted after it is made" : "no collection forced")}, .NET {Environment.Version}, "
            + $"{Environment.ProcessorCount} cores. Best call per side, µs.");
        Console.WriteLine();
        Console.WriteLine($"| document | {otherLabel} | this build | this ÷ other |");
        Console.WriteLine("| --- | ---: | ---: | ---: |");
        var ratios = new List<(string Document, double Ratio)>();
        foreach (string document in documents)
        {
            (double otherBest, double oursBest) = Measure(document, makeOther, Ours(toString), space, compact, seconds);
            double ratio = oursBest / otherBest;
            ratios.Add((document, ratio));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {document} | {otherBest:F1} | {oursBest:F1} | {ratio:F3} |"));
        }

        Console.WriteLine();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Median of this ÷ other: {Median(ratios.Select(r => r.Ratio)):F3} over {Count(ratios.Count)}."));
        double[] wide = [.. ratios.Where(r => r.Document.StartsWith("corpus/", StringComparison.Ordinal)).Select(r => r.Ratio)];
        if (wide.Length > 0 && wide.Length < ratios.Count)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Median over the wider corpus: {Median(wide):F3} over {Count(wide.Length)}."));
        }

        return 0;
    }

    private static (double Other, double Ours) Measure(
        string document, Func<Engine, JsValue, Func<JsValue, long>> makeOther, Func<Engine, JsValue, Func<JsValue, long>> makeOurs, int space, bool compact, double seconds)
    {
        using var engine = new Engine();
        bool built = document.StartsWith(BuiltPrefix, StringComparison.Ordinal);
        JsValue value = Corpus.ParseFile(engine, Corpus.Find(built ? document[BuiltPrefix.Length..] : document));
        if (built)
        {
            value = engine.Evaluate(Corpus.Read("rebuild.js")).Call(JsValue.Undefined, [value, new JsString("assigned")]);
        }

        if (compact)
        {
            GCSettings.LargeObjectHeapCompactionMode = GCLargeObjectHeapCompactionMode.CompactOnce;
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        }

        JsValue gap = space == 0 ? JsValue.Undefined : JsNumber.Create(space);
        Func<JsValue, long>[] sides = [makeOther(engine, gap), makeOurs(engine, gap)];

        // Both sides write the same text; a length that differs means they are not measuring the same thing.
        long otherLength = sides[0](value);
        long oursLength = sides[1](value);
        if (otherLength != oursLength)
        {
            throw new InvalidOperationException($"{document}: the other side wrote {otherLength} units and this build {oursLength}.");
        }

        double[] best = [double.MaxValue, double.MaxValue];
        var clock = Stopwatch.StartNew();
        for (int round = 0; clock.Elapsed.TotalSeconds < seconds; round++)
        {
            for (int turn = 0; turn < 2; turn++)
            {
                int side = (round + turn) % 2;
                for (int call = 0; call < Batch; call++)
                {
                    long start = Stopwatch.GetTimestamp();
                    sides[side](value);
                    best[side] = Math.Min(best[side], Stopwatch.GetElapsedTime(start).TotalMicroseconds);
                }
            }
        }

        return (best[0], best[1]);
    }

    // A side is made per document, for its engine and gap; it serializes a value and returns the length of the text
    // (bytes as UTF-8, chars as a string).
    private static Func<Engine, JsValue, Func<JsValue, long>> Ours(bool toString) => (engine, gap) =>
    {
        var serializer = new JsonSerializer(engine);
        if (toString)
        {
            return value => serializer.Serialize(value, JsValue.Undefined, gap).ToString().Length;
        }

        var writer = new ArrayBufferWriter<byte>(1 << 20);
        return value =>
        {
            writer.ResetWrittenCount();
            serializer.Serialize(value, JsValue.Undefined, gap, writer);
            return writer.WrittenCount;
        };
    };

    private static Func<Engine, JsValue, Func<JsValue, long>> Jint(bool toString) => (engine, gap) =>
    {
        var serializer = new global::Jint.Native.Json.JsonSerializer(engine);
        if (toString)
        {
            return value => serializer.Serialize(value, JsValue.Undefined, gap).ToString().Length;
        }

        var writer = new ArrayBufferWriter<byte>(1 << 20);
        return value =>
        {
            writer.ResetWrittenCount();
            serializer.Serialize(value, JsValue.Undefined, gap, writer);
            return writer.WrittenCount;
        };
    };

    // Another build of JsonStringify, through delegates bound once per document to its public Serialize overloads.
    private static Func<Engine, JsValue, Func<JsValue, long>> Baseline(string path, bool toString)
    {
        Assembly assembly = new BaselineContext(Path.GetFullPath(path)).LoadFromAssemblyPath(Path.GetFullPath(path));
        Type type = assembly.GetType(typeof(JsonSerializer).FullName!, throwOnError: true)!;
        MethodInfo toText = type.GetMethod(nameof(JsonSerializer.Serialize), [typeof(JsValue), typeof(JsValue), typeof(JsValue)])
            ?? throw new MissingMethodException(type.FullName, nameof(JsonSerializer.Serialize));
        MethodInfo toBytes = type.GetMethod(nameof(JsonSerializer.Serialize), [typeof(JsValue), typeof(JsValue), typeof(JsValue), typeof(IBufferWriter<byte>)])
            ?? throw new MissingMethodException(type.FullName, nameof(JsonSerializer.Serialize));
        return (engine, gap) =>
        {
            object serializer = Activator.CreateInstance(type, engine)!;
            if (toString)
            {
                var serialize = toText.CreateDelegate<Func<JsValue, JsValue, JsValue, JsValue>>(serializer);
                return value => serialize(value, JsValue.Undefined, gap).ToString().Length;
            }

            var serializeTo = toBytes.CreateDelegate<Func<JsValue, JsValue, JsValue, IBufferWriter<byte>, bool>>(serializer);
            var writer = new ArrayBufferWriter<byte>(1 << 20);
            return value =>
            {
                writer.ResetWrittenCount();
                serializeTo(value, JsValue.Undefined, gap, writer);
                return writer.WrittenCount;
            };
        };
    }

    private static string Count(int documents) => documents == 1 ? "1 document" : $"{documents} documents";

    private static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Order()];
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    // The baseline build on its own; everything it refers to (Jint above all) comes from the default context, so both
    // builds serialize the same engine's values.
    private sealed class BaselineContext(string path) : AssemblyLoadContext($"baseline {path}")
    {
        protected override Assembly? Load(AssemblyName assemblyName) => null;
    }
}
