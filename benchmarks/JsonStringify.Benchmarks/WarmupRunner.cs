using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Reflection.PortableExecutable;
using System.Runtime;
using System.Text;
using System.Text.RegularExpressions;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// How soon each serializer is fast in a new process, and on a new shape late in a process's life. Every measurement
/// runs in a fresh process (this program started again with <see cref="ChildArgument"/>). For <c>--warmup</c> and
/// <c>--late-shape</c> it serves one side only, Jint's serializer or ours, so that neither warms code the other shares
/// (Jint's property reads, the engine), and the order of the two sides alternates from one process to the next. Each
/// call is timed on its own: UTF-8 into a reused ArrayBufferWriter (Jint's own UTF-8 overload against ours), or with
/// <c>--string</c> the string result.
/// <list type="bullet">
/// <item><c>--warmup [names]</c>: per document, the first call, the best of the first 200 calls, and the steady state
/// (the best of 300 calls made after the process has served the document for 3 s), and what the runtime compiled
/// from the end of the first call to the end of the steady state (<see cref="System.Runtime.JitInfo"/>: the time spent
/// compiling, on every thread, and the number of methods compiled): the tiering work a side's calls wait for.</item>
/// <item><c>--late-shape [first:second,...]</c>: serves the first document for 3 s, then the second; of the second, the
/// first call, the best of calls 300–315 (counting from 0), the best of each block of 100 of its first 1,000 calls,
/// and its steady state (the best of 300 calls after 3 s more).</item>
/// <item><c>--alternate [names]</c>: here one process serves both sides, as a service that has both would: 200 calls of
/// one, 200 of the other, three rounds, the side that starts alternating from one process to the next. Per process and
/// round, each side's best call; a process passes when our best call of all three rounds is no slower than Jint's.
/// Here the two sides compete for the runtime's recompiling of hot code, which goes by calls and elapsed time.</item>
/// </list>
/// Names are paths under testdata/ without the extension ("twitter", "corpus/lockfile"), or "file:" and a JSON file's
/// path, as separate arguments or joined by commas; <c>--processes N</c> sets the number of processes per side, or with
/// <c>--alternate</c> the number of processes (10 by default). The environment is passed on to every child, so a
/// configuration is chosen by how this program is started: <c>DOTNET_TieredPGO=0 dotnet JsonStringify.Benchmarks.dll
/// --warmup</c>, or a ReadyToRun build (see benchmarks/README.md). <c>--trace DIR</c> has each child write what the
/// runtime compiled, and when it paused its compiling, into a file of its own in DIR (<see cref="TieringTrace"/>).
/// </summary>
public static partial class WarmupRunner
{
    /// <summary>The first argument of a child process: <c>--warmup-child mode side output documents</c>.</summary>
    public const string ChildArgument = "--warmup-child";

    private const int EarlyCalls = 200;
    private const int LateCalls = 1000;
    private const int LateWindowFirst = 300;
    private const int LateWindowLast = 315;
    private const int LateBlock = 100;
    private const int SteadyCalls = 300;
    private static readonly TimeSpan s_serve = TimeSpan.FromSeconds(3);

    private static readonly string[] s_warmupDocuments = ["corpus/joblist", "twitter", "corpus/events"];
    private static readonly string[] s_latePairs = ["corpus/lockfile:corpus/sourcemap", "corpus/events:corpus/sourcemap"];
    private static readonly string[] s_sides = ["jint", "ours"];
    private const int AlternateRounds = 3;

    /// <summary>Whether <paramref name="args"/> ask for this runner.</summary>
    public static bool Handles(string[] args) =>
        args.Length > 0 && args[0] is "--warmup" or "--late-shape" or "--alternate" or ChildArgument;

    /// <summary>Runs the measurement that <paramref name="args"/> ask for; the process's exit code.</summary>
    public static int Run(string[] args)
    {
        if (args[0] == ChildArgument)
        {
            // The trace listens from before anything is compiled for the measurement.
            using TieringTrace? trace = args.Length > 5 ? new TieringTrace() : null;
            RunChild(args[1], args[2], args[3], args[4]);
            trace?.Write(args[5]);
            return 0;
        }

        string mode = args[0] switch { "--late-shape" => "late", "--alternate" => "alternate", _ => "warmup" };
        bool late = mode == "late";
        int processes = 10;
        string output = "utf8";
        string? traces = null;
        // Documents (or late-shape pairs) as separate arguments, as the other runners take them, or joined by commas.
        var named = new List<string>();
        for (int i = 1; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--processes":
                    processes = int.Parse(args[++i], CultureInfo.InvariantCulture);
                    break;
                case "--string":
                    output = "string";
                    break;
                case "--trace":
                    traces = Directory.CreateDirectory(args[++i]).FullName;
                    break;
                case var option when option.StartsWith("--", StringComparison.Ordinal):
                    Console.Error.WriteLine($"{args[0]} takes --processes N, --string, --trace DIR and document names, not '{option}'.");
                    return 1;
                default:
                    named.AddRange(args[i].Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
                    break;
            }
        }

        string[] scenarios = named.Count > 0 ? [.. named] : late ? s_latePairs : s_warmupDocuments;
        PrintConfiguration(mode, processes, output);
        if (mode == "alternate")
        {
            RunAlternating(scenarios, processes, output, traces);
            return 0;
        }

        if (late)
        {
            Console.WriteLine("| first → second | side | second's first call | best of calls 300–315 | second's steady state | 300–315 ÷ steady | within 1.25× | best per 100 calls, 0–999 (medians over processes) |");
            Console.WriteLine("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |");
        }
        else
        {
            Console.WriteLine("| document | side | first call | best of first 200 | steady state | first 200 ÷ steady | within 1.5× | ÷ Jint's steady state (steady; first 200) | compiled after the first call: ms, methods |");
            Console.WriteLine("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        }

        foreach (string scenario in scenarios)
        {
            foreach (string document in DocumentsOf(scenario, late))
            {
                _ = Corpus.Find(document);
            }

            var results = new Dictionary<string, List<Dictionary<string, double>>> { ["jint"] = [], ["ours"] = [] };
            for (int process = 0; process < processes; process++)
            {
                // Alternate which side starts, so that neither always runs on the machine's state after the other.
                foreach (string side in process % 2 == 0 ? s_sides : s_sides.Reverse())
                {
                    results[side].Add(Launch(mode, side, output, scenario, TracePath(traces, mode, scenario, process, side)));
                }
            }

            if (late)
            {
                PrintLate(scenario, results);
            }
            else
            {
                PrintWarmup(scenario, results);
            }
        }

        return 0;
    }

    // --alternate: one process per measurement, both sides in it; the side that starts alternates between processes.
    private static void RunAlternating(string[] documents, int processes, string output, string? traces)
    {
        string rounds = string.Join(" | ", Enumerable.Range(1, AlternateRounds).Select(round => $"round {round}: Jint; ours"));
        Console.WriteLine($"| document | starts | {rounds} | best of all: Jint; ours | ours ÷ Jint |");
        Console.WriteLine($"| --- | --- |{string.Concat(Enumerable.Repeat(" ---: |", AlternateRounds))} ---: | ---: |");
        foreach (string document in documents)
        {
            _ = Corpus.Find(document);
            var ratios = new List<double>();
            for (int process = 0; process < processes; process++)
            {
                string first = s_sides[process % 2];
                Dictionary<string, double> result = Launch(
                    "alternate", first, output, document, TracePath(traces, "alternate", document, process, first));
                string cells = string.Join(" | ", Enumerable.Range(0, AlternateRounds)
                    .Select(round => string.Create(CultureInfo.InvariantCulture, $"{result[$"jint{round}"]:F1}; {result[$"ours{round}"]:F1}")));
                double jint = Enumerable.Range(0, AlternateRounds).Min(round => result[$"jint{round}"]);
                double ours = Enumerable.Range(0, AlternateRounds).Min(round => result[$"ours{round}"]);
                ratios.Add(ours / jint);
                Console.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"| {document} | {Label(first)} | {cells} | {jint:F1}; {ours:F1} | {ours / jint:F2} |"));
            }

            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"| {document} | all |{string.Concat(Enumerable.Repeat(" |", AlternateRounds))} median {Statistics.Median(ratios):F2}, worst {ratios.Max():F2} | ours no slower in {ratios.Count(r => r <= 1)}/{ratios.Count} |"));
        }
    }

    private static void PrintConfiguration(string mode, int processes, string output)
    {
        string environment = string.Join(", ", Environment.GetEnvironmentVariables().Keys.Cast<string>()
            .Where(key => key.StartsWith("DOTNET_", StringComparison.Ordinal) && !key.StartsWith("DOTNET_CLI_", StringComparison.Ordinal)
                && key is not ("DOTNET_NOLOGO" or "DOTNET_SKIP_FIRST_TIME_EXPERIENCE" or "DOTNET_GENERATE_ASPNET_CERTIFICATE"))
            .Order(StringComparer.Ordinal)
            .Select(key => $"{key}={Environment.GetEnvironmentVariable(key)}"));
        string title = mode switch
        {
            "late" => $"Late shape: {processes} fresh processes per side",
            "alternate" => $"Alternating: {processes} fresh processes, each serving both sides {AlternateRounds} × {EarlyCalls} calls",
            _ => $"Warm-up: {processes} fresh processes per side",
        };
        Console.WriteLine($"{title}, output {(output == "utf8" ? "UTF-8 into a reused ArrayBufferWriter" : "string")}, "
            + $".NET {Environment.Version}, {Environment.ProcessorCount} cores; environment: {(environment.Length == 0 ? "default" : environment)}; "
            + $"ReadyToRun: JsonStringify {IsReadyToRun(typeof(JsonSerializer).Assembly)}, Jint {IsReadyToRun(typeof(Engine).Assembly)}.");
        Console.WriteLine(mode == "alternate"
            ? "One row per process: each side's best call per round, µs."
            : "Times are medians over processes, with their range (min–max); µs per call.");
        Console.WriteLine();
    }

    private static bool IsReadyToRun(Assembly assembly)
    {
        using FileStream stream = File.OpenRead(assembly.Location);
        using var reader = new PEReader(stream);
        return reader.PEHeaders.CorHeader is { ManagedNativeHeaderDirectory.Size: > 0 };
    }

    // The file a child writes its trace into (--trace), one per process and side; null without a trace.
    private static string? TracePath(string? traces, string mode, string scenario, int process, string side) =>
        traces is null ? null : Path.Combine(traces, $"{mode}-{scenario.Replace('/', '_').Replace(':', '+')}-{process:D2}-{side}.tsv");

    private static Dictionary<string, double> Launch(string mode, string side, string output, string scenario, string? trace)
    {
        string[] arguments = [ChildArgument, mode, side, output, scenario];
        using Process child = RunnerProcess.Start(trace is null ? arguments : [.. arguments, trace], redirectError: true);
        Task<string> error = child.StandardError.ReadToEndAsync();
        string text = child.StandardOutput.ReadToEnd();
        child.WaitForExit();
        if (child.ExitCode != 0)
        {
            throw new InvalidOperationException($"The {side} process for {scenario} exited with {child.ExitCode}: {error.Result}");
        }

        return text.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(pair => pair.Split('='))
            .ToDictionary(pair => pair[0], pair => double.Parse(pair[1], CultureInfo.InvariantCulture));
    }

    private static void PrintWarmup(string document, Dictionary<string, List<Dictionary<string, double>>> results)
    {
        double jintSteady = Statistics.Median(results["jint"].Select(r => r["steady"]));
        foreach (string side in s_sides)
        {
            List<Dictionary<string, double>> runs = results[side];
            double[] early = [.. runs.Select(r => r["early"] / r["steady"])];
            string versusJint = side == "jint"
                ? "—"
                : $"{Statistics.Median(runs.Select(r => r["steady"])) / jintSteady:F2}; {Statistics.Median(runs.Select(r => r["early"])) / jintSteady:F2}";
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"| {document} | {Label(side)} | {Spread(runs, "first")} | {Spread(runs, "early")} | {Spread(runs, "steady")} | {Statistics.Median(early):F2} ({early.Min():F2}–{early.Max():F2}) | {early.Count(r => r <= 1.5)}/{runs.Count} | {versusJint} | {Spread(runs, "jitMs")}, {Statistics.Median(runs.Select(r => r["jitMethods"])):F0} |"));
        }
    }

    private static void PrintLate(string pair, Dictionary<string, List<Dictionary<string, double>>> results)
    {
        foreach (string side in s_sides)
        {
            List<Dictionary<string, double>> runs = results[side];
            double[] window = [.. runs.Select(r => r["window"] / r["steady"])];
            string blocks = string.Join(", ", Enumerable.Range(0, LateCalls / LateBlock)
                .Select(block => Statistics.Median(runs.Select(r => r[$"block{block}"])).ToString("F0", CultureInfo.InvariantCulture)));
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"| {string.Join(" → ", DocumentsOf(pair, late: true))} | {Label(side)} | {Spread(runs, "first")} | {Spread(runs, "window")} | {Spread(runs, "steady")} | {Statistics.Median(window):F2} ({window.Min():F2}–{window.Max():F2}) | {window.Count(r => r <= 1.25)}/{runs.Count} | {blocks} |"));
        }
    }

    private static string Label(string side) => side == "jint" ? "Jint 4.18.0" : "JsonStringify";

    private static string Spread(List<Dictionary<string, double>> runs, string key)
    {
        double[] values = [.. runs.Select(r => r[key])];
        return string.Create(CultureInfo.InvariantCulture, $"{Statistics.Median(values):F1} ({values.Min():F1}–{values.Max():F1})");
    }

    // The documents of a scenario: one, or for --late-shape the two of a pair, "first:second", either of which may be
    // "file:" and a path (one without a colon).
    private static string[] DocumentsOf(string scenario, bool late)
    {
        if (!late)
        {
            return [scenario];
        }

        Match pair = LatePair().Match(scenario);
        return pair.Success
            ? [pair.Groups["first"].Value, pair.Groups["second"].Value]
            : throw new ArgumentException($"--late-shape takes pairs of documents, first:second, not '{scenario}'.", nameof(scenario));
    }

    [GeneratedRegex("^(?<first>(?:file:)?[^:]+):(?<second>(?:file:)?[^:]+)$")]
    private static partial Regex LatePair();

    // One process: serves the documents on one side and prints "key=µs" pairs on one line.
    private static void RunChild(string mode, string side, string output, string scenario)
    {
        using var engine = new Engine();
        JsValue[] documents = [.. DocumentsOf(scenario, mode == "late").Select(name => Corpus.ParseFile(engine, Corpus.Find(name)))];
        var writer = new ArrayBufferWriter<byte>(1 << 24);
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        var ours = new JsonSerializer(engine);
        var results = new StringBuilder();
        void Report(string key, double seconds) => results.Append(CultureInfo.InvariantCulture, $"{key}={seconds * 1e6:F2} ");
        void ReportValue(string key, double value) => results.Append(CultureInfo.InvariantCulture, $"{key}={value:F2} ");

        if (mode == "alternate")
        {
            // side is the one that starts; each round serves it, then the other. The best calls are formatted after
            // the last round: a method this process calls for the first time pauses the runtime's tiered compilation
            // for at least 100 ms, and formatting between rounds did that in the middle of the measurement.
            string[] order = side == "jint" ? s_sides : [.. s_sides.Reverse()];
            Func<JsValue, double>[] calls = [.. order.Select(s => Caller(s, output, builtin, ours, writer))];
            double[] bests = new double[AlternateRounds * order.Length];
            string[] marks = [.. Enumerable.Range(0, AlternateRounds).SelectMany(round => order.Select(s => $"{s} round {round + 1}"))];
            for (int round = 0; round < AlternateRounds; round++)
            {
                for (int turn = 0; turn < order.Length; turn++)
                {
                    TieringTrace.Current?.Mark(marks[(round * order.Length) + turn]);
                    double best = double.MaxValue;
                    for (int i = 0; i < EarlyCalls; i++)
                    {
                        best = Math.Min(best, calls[turn](documents[0]));
                    }

                    bests[(round * order.Length) + turn] = best;
                }
            }

            TieringTrace.Current?.Mark("rounds ended");

            for (int round = 0; round < AlternateRounds; round++)
            {
                for (int turn = 0; turn < order.Length; turn++)
                {
                    Report($"{order[turn]}{round}", bests[(round * order.Length) + turn]);
                }
            }

            Console.WriteLine(results.ToString().TrimEnd());
            return;
        }

        Func<JsValue, double> call = Caller(side, output, builtin, ours, writer);
        var clock = Stopwatch.StartNew();
        TimeSpan compilingBefore = default;
        long compiledBefore = 0;
        if (mode == "warmup")
        {
            double first = call(documents[0]);
            compilingBefore = JitInfo.GetCompilationTime();
            compiledBefore = JitInfo.GetCompiledMethodCount();
            double early = first;
            for (int i = 1; i < EarlyCalls; i++)
            {
                early = Math.Min(early, call(documents[0]));
            }

            Report("first", first);
            Report("early", early);
        }
        else
        {
            Serve(call, documents[0], clock, s_serve);
            double[] times = new double[LateCalls];
            for (int i = 0; i < LateCalls; i++)
            {
                times[i] = call(documents[1]);
            }

            Report("first", times[0]);
            Report("window", times[LateWindowFirst..(LateWindowLast + 1)].Min());
            for (int block = 0; block < LateCalls / LateBlock; block++)
            {
                Report($"block{block}", times[(block * LateBlock)..((block + 1) * LateBlock)].Min());
            }

            clock.Restart();
        }

        JsValue last = documents[^1];
        Serve(call, last, clock, s_serve);
        double steady = double.MaxValue;
        for (int i = 0; i < SteadyCalls; i++)
        {
            steady = Math.Min(steady, call(last));
        }

        Report("steady", steady);
        if (mode == "warmup")
        {
            ReportValue("jitMs", (JitInfo.GetCompilationTime() - compilingBefore).TotalMilliseconds);
            ReportValue("jitMethods", JitInfo.GetCompiledMethodCount() - compiledBefore);
        }

        Console.WriteLine(results.ToString().TrimEnd());
    }

    /// <summary>
    /// Our two outputs of <paramref name="document"/>, each a timed call as <see cref="Caller"/> makes it (UTF-8 into a
    /// writer of their own, reused), both called <paramref name="warmupCalls"/> times in turn before they are returned.
    /// </summary>
    internal static (Func<JsValue, double> Utf8, Func<JsValue, double> Text) WarmOurOutputs(Engine engine, JsValue document, int warmupCalls)
    {
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        var ours = new JsonSerializer(engine);
        var writer = new ArrayBufferWriter<byte>(1 << 24);
        Func<JsValue, double> utf8 = Caller("ours", "utf8", builtin, ours, writer);
        Func<JsValue, double> text = Caller("ours", "string", builtin, ours, writer);
        for (int i = 0; i < warmupCalls; i++)
        {
            utf8(document);
            text(document);
        }

        return (utf8, text);
    }

    /// <summary>
    /// One timed call of a side ("jint" or "ours"), in seconds: UTF-8 into the reused writer, or the string result.
    /// </summary>
    internal static Func<JsValue, double> Caller(
        string side, string output, Jint.Native.Json.JsonSerializer builtin, JsonSerializer ours, ArrayBufferWriter<byte> writer) =>
        (side, output) switch
        {
            ("jint", "utf8") => document =>
            {
                writer.ResetWrittenCount();
                long start = Stopwatch.GetTimestamp();
                builtin.Serialize(document, writer);
                return Stopwatch.GetElapsedTime(start).TotalSeconds;
            },
            ("ours", "utf8") => document =>
            {
                writer.ResetWrittenCount();
                long start = Stopwatch.GetTimestamp();
                ours.Serialize(document, writer);
                return Stopwatch.GetElapsedTime(start).TotalSeconds;
            },
            ("jint", "string") => document =>
            {
                long start = Stopwatch.GetTimestamp();
                builtin.Serialize(document);
                return Stopwatch.GetElapsedTime(start).TotalSeconds;
            },
            ("ours", "string") => document =>
            {
                long start = Stopwatch.GetTimestamp();
                ours.Serialize(document);
                return Stopwatch.GetElapsedTime(start).TotalSeconds;
            },
            _ => throw new ArgumentException($"Unknown side or output: {side}, {output}."),
        };

    // Calls until the clock reaches the budget.
    private static void Serve(Func<JsValue, double> call, JsValue document, Stopwatch clock, TimeSpan budget)
    {
        while (clock.Elapsed < budget)
        {
            call(document);
        }
    }
}
