using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace JsonStringify.Benchmarks;

/// <summary>
/// A second way to read the ratios, for machines whose speed drifts: the same scenarios as the BenchmarkDotNet suite,
/// but Jint and JsonStringify measured in alternating batches of about 200 ms each, in one process, so that both sides
/// of every ratio see the same phase of the machine. Each round gives one ratio; the table shows their median and
/// range. Run it with <c>dotnet run -c Release -- --paired [glob...]</c> (see <see cref="Usage"/>).
/// </summary>
public static class PairedRunner
{
    public const string Usage = """
        --paired [--apart] [--filter] [glob...]
          Jint and JsonStringify in alternating ~200 ms batches in this process, 11 rounds per scenario, printing the
          median ratio and its range as a Markdown table (progress goes to stderr). --apart runs each side in a
          process of its own, the two still taking turns batch by batch: each side's garbage is then collected in
          its own process, where in one process a collection made due by both sides' allocations falls in whichever
          side's batch is running (which moves the rounds of scenarios that build large trees, such as ToJsonNode's).
          A glob selects the scenarios as BenchmarkDotNet's --filter does: * is any run of characters, ? is one, case
          is ignored, and it is matched against each side's BenchmarkDotNet name
          (JsonStringify.Benchmarks.SmallDocumentBenchmarks.Ours) and the scenario's name in the table (small: event).
          No glob runs every scenario; a glob that matches none is an error (exit code 1).
          Example: dotnet run -c Release -- --paired --apart '*geojson*ToJsonNode vs JsonNode.Parse(ours)*'
        """;

    /// <summary>
    /// The first argument of a side's process under <c>--paired --apart</c> (see <see cref="RunChild"/>).
    /// </summary>
    public const string ChildArgument = "--paired-child";

    private const string ApartOption = "--apart";
    private const string BuiltinSide = "builtin";
    private const string OursSide = "ours";
    private const int Rounds = 11;
    private static readonly TimeSpan s_batch = TimeSpan.FromMilliseconds(200);
    private static readonly TimeSpan s_warmUp = TimeSpan.FromMilliseconds(500);

    /// <summary>Runs the scenarios that the globs select; the process's exit code.</summary>
    public static int Run(string[] args)
    {
        if (args.Contains("--help") || args.Contains("-h"))
        {
            Console.WriteLine(Usage);
            return 0;
        }

        bool apart = args.Contains(ApartOption);
        string[] globs = [.. args.Where(a => a != "--filter" && a != ApartOption)];
        Regex[] filters = [.. globs.Select(Glob)];
        Scenario[] all = [.. Scenarios()];
        Scenario[] selected = [.. all.Where(s => filters.Length == 0 || s.Names.Append(s.Name).Any(n => filters.Any(f => f.IsMatch(n))))];
        if (selected.Length == 0)
        {
            Console.Error.WriteLine($"No paired scenario matches {string.Join(" or ", globs.Select(g => $"'{g}'"))}. "
                + "Globs match the BenchmarkDotNet name or the table name of a scenario (see --paired --help); the scenarios are:");
            foreach (Scenario scenario in all)
            {
                Console.Error.WriteLine($"  {scenario.Name}  ({scenario.Names[0][..scenario.Names[0].LastIndexOf('.')]}.*)");
            }

            return 1;
        }

        Console.WriteLine($"Paired runs: {Rounds} rounds of alternating ~{s_batch.TotalMilliseconds:F0} ms batches per scenario, "
            + $"{(apart ? "each side in a process of its own" : "both sides in one process")}, "
            + $".NET {Environment.Version}, {Environment.ProcessorCount} cores.");
        Console.WriteLine();
        Console.WriteLine("| scenario | Jint 4.18.0 | JsonStringify | ratio (median) | ratio (range over rounds) |");
        Console.WriteLine("| --- | ---: | ---: | ---: | ---: |");
        for (int i = 0; i < selected.Length; i++)
        {
            Console.Error.WriteLine($"scenario {i + 1} of {selected.Length}: {selected[i].Name}");
            if (apart)
            {
                using var builtin = SideProcess.Start(selected[i].Name, BuiltinSide);
                using var ours = SideProcess.Start(selected[i].Name, OursSide);
                Measure(selected[i].Name, builtin.Time, ours.Time);
            }
            else
            {
                using Pair pair = selected[i].Create();
                Measure(selected[i].Name, budget => Time(pair.Builtin, budget), budget => Time(pair.Ours, budget));
            }
        }

        return 0;
    }

    /// <summary>
    /// A side's process under <c>--paired --apart</c>: <c>--paired-child scenario builtin|ours</c>. It sets the
    /// scenario up, says <c>ready</c>, and then, for each line <c>run MILLISECONDS</c> on its input, calls its side
    /// for that long and answers with the seconds per call; it ends when its input does.
    /// </summary>
    public static int RunChild(string[] args)
    {
        string name = args[0];
        string side = args[1];
        Scenario scenario = Scenarios().Single(s => s.Name == name);
        using Pair pair = scenario.Create();
        Action call = side == OursSide ? pair.Ours : pair.Builtin;
        Console.WriteLine("ready");
        while (Console.ReadLine() is string line)
        {
            double milliseconds = double.Parse(line["run ".Length..], CultureInfo.InvariantCulture);
            double perCall = Time(call, TimeSpan.FromMilliseconds(milliseconds));
            Console.WriteLine(perCall.ToString("R", CultureInfo.InvariantCulture));
        }

        return 0;
    }

    // BenchmarkDotNet's glob: * is any run, ? one char, the rest literal; the whole name must match, case ignored.
    private static Regex Glob(string pattern) =>
        new("^" + Regex.Escape(pattern).Replace(@"\*", ".*", StringComparison.Ordinal).Replace(@"\?", ".", StringComparison.Ordinal) + "$",
            RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);

    // Each side is a function that calls it for a budget and gives the seconds per call, in this process or in the
    // side's own.
    private static void Measure(string name, Func<TimeSpan, double> timeBuiltin, Func<TimeSpan, double> timeOurs)
    {
        timeBuiltin(s_warmUp);
        timeOurs(s_warmUp);
        var ours = new double[Rounds];
        var builtin = new double[Rounds];
        var ratios = new double[Rounds];
        for (int round = 0; round < Rounds; round++)
        {
            // Alternate which side goes first, so that neither always follows the other's garbage.
            if (round % 2 == 0)
            {
                builtin[round] = timeBuiltin(s_batch);
                ours[round] = timeOurs(s_batch);
            }
            else
            {
                ours[round] = timeOurs(s_batch);
                builtin[round] = timeBuiltin(s_batch);
            }

            ratios[round] = ours[round] / builtin[round];
        }

        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"| {name} | {Format(Statistics.Median(builtin))} | {Format(Statistics.Median(ours))} | {Statistics.Median(ratios):F2} | {ratios.Min():F2}–{ratios.Max():F2} |"));
    }

    // Seconds per call, over calls made until the budget is spent.
    private static double Time(Action call, TimeSpan budget)
    {
        long calls = 0;
        var clock = Stopwatch.StartNew();
        do
        {
            call();
            calls++;
        }
        while (clock.Elapsed < budget);

        return clock.Elapsed.TotalSeconds / calls;
    }

    private static string Format(double seconds) => seconds >= 1e-3
        ? string.Create(CultureInfo.InvariantCulture, $"{seconds * 1e3:F2} ms")
        : string.Create(CultureInfo.InvariantCulture, $"{seconds * 1e6:F2} µs");

    private static IEnumerable<Scenario> Scenarios()
    {
        foreach (string file in Corpus.Files)
        {
            string document = Path.GetFileNameWithoutExtension(file);
            foreach (int space in (int[])[0, 2])
            {
                yield return Scenario.Of<CorpusBenchmarks>(
                    $"{document}, {(space == 0 ? "compact" : "space 2")}", () => Pair.Of(new CorpusBenchmarks { File = file, Space = space }));
            }
        }

        foreach (string file in Corpus.Files)
        {
            string document = Path.GetFileNameWithoutExtension(file);
            foreach (string kind in (string[])["function", "list"])
            {
                yield return Scenario.Of<ReplacerBenchmarks>(
                    $"{document}, replacer {kind}", () => Pair.Of(new ReplacerBenchmarks { File = file, Kind = kind }));
            }
        }

        foreach (string shape in (string[])["20000x20", "1000x1000"])
        {
            yield return Scenario.Of<TableBenchmarks>($"table {shape}", () => Pair.Of(new TableBenchmarks { Shape = shape }));
        }

        yield return Scenario.Of<TableUtf8Benchmarks>("table 20000x20, UTF-8 IBufferWriter", () => Pair.Of(new TableUtf8Benchmarks()), ours: "BufferWriter");

        foreach (string document in (string[])["event", "array10"])
        {
            yield return Scenario.Of<SmallDocumentBenchmarks>(
                $"small: {document}", () => Pair.Of(new SmallDocumentBenchmarks { Document = document }));
        }

        foreach (string file in Corpus.Files)
        {
            yield return Scenario.Of<ScriptBenchmarks>(
                $"{Path.GetFileNameWithoutExtension(file)}, in script", () => Pair.Of(new ScriptBenchmarks { File = file }));
        }

        foreach (string file in Corpus.Files)
        {
            yield return Scenario.Of<Utf8Benchmarks>(
                $"{Path.GetFileNameWithoutExtension(file)}, UTF-8 IBufferWriter", () => Pair.Of(new Utf8Benchmarks { File = file }), ours: "BufferWriter");
        }

        foreach (string file in Corpus.Files)
        {
            yield return Scenario.Of<Utf8Benchmarks>(
                $"{Path.GetFileNameWithoutExtension(file)}, UTF-8 IBufferWriter, space 2", () => Pair.Of(new Utf8Benchmarks { File = file, Space = 2 }), ours: "BufferWriter");
        }

        // The wider corpus, named by path ("corpus/lockfile, ..."), so that "--paired '*corpus/*'" selects all of it.
        foreach (string file in Corpus.Wide)
        {
            string document = Corpus.Name(file);
            foreach (int space in (int[])[0, 2])
            {
                string layout = space == 0 ? "compact" : "space 2";
                yield return Scenario.Of<CorpusBenchmarks>($"{document}, {layout}", () => Pair.Of(new CorpusBenchmarks { File = file, Space = space }));
                yield return Scenario.Of<Utf8Benchmarks>(
                    $"{document}, UTF-8 IBufferWriter, {layout}", () => Pair.Of(new Utf8Benchmarks { File = file, Space = space }), ours: "BufferWriter");
            }
        }

        // The System.Text.Json bridge: here the left column is the baseline named in the row, not Jint's serializer.
        foreach (string document in SystemTextJsonBenchmarks.Documents)
        {
            string name = SystemTextJsonBenchmarks.Name(document);
            yield return Scenario.Of<SystemTextJsonBenchmarks>(
                $"{name}, ToJsonNode vs JsonNode.Parse(ours) + walk",
                () => Pair.Of(new SystemTextJsonBenchmarks { Document = document }, b => b.ParseOursAndWalk(), b => b.ToJsonNode()),
                builtin: "ParseOursAndWalk",
                ours: "ToJsonNode");
            yield return Scenario.Of<SystemTextJsonBenchmarks>(
                $"{name}, ToJsonNode vs JsonNode.Parse(Jint) + walk",
                () => Pair.Of(new SystemTextJsonBenchmarks { Document = document }, b => b.ParseJintAndWalk(), b => b.ToJsonNode()),
                builtin: "ParseJintAndWalk",
                ours: "ToJsonNode");
            yield return Scenario.Of<SystemTextJsonBenchmarks>(
                $"{name}, Utf8JsonWriter vs IBufferWriter",
                () => Pair.Of(new SystemTextJsonBenchmarks { Document = document }, b => b.BufferWriter(), b => b.Utf8JsonWriter()),
                builtin: "BufferWriter",
                ours: "Utf8JsonWriter");
        }

        foreach (string file in BuiltBenchmarks.Files)
        {
            foreach (string build in BuiltBenchmarks.Builds)
            {
                yield return Scenario.Of<BuiltBenchmarks>(
                    $"{Path.GetFileNameWithoutExtension(file)}, built: {build}", () => Pair.Of(new BuiltBenchmarks { File = file, Build = build }));
            }
        }
    }

    /// <summary>
    /// One row of the table: its name, the BenchmarkDotNet names of its two sides (class and method, which globs are
    /// matched against as well), and how to set it up.
    /// </summary>
    private sealed record Scenario(string Name, string[] Names, Func<Pair> Create)
    {
        public static Scenario Of<TBenchmark>(string name, Func<Pair> create, string ours = "Ours", string builtin = "Builtin") =>
            new(name, [$"{typeof(TBenchmark).FullName}.{builtin}", $"{typeof(TBenchmark).FullName}.{ours}"], create);
    }

    /// <summary>The two sides of one scenario, set up, and what to dispose afterwards.</summary>
    private sealed class Pair(Action builtin, Action ours, IDisposable owner) : IDisposable
    {
        public Action Builtin { get; } = builtin;

        public Action Ours { get; } = ours;

        public static Pair Of(SerializerBenchmark scenario)
        {
            scenario.Setup();
            return new Pair(() => scenario.Builtin(), () => scenario.Ours(), scenario);
        }

        public static Pair Of(ScriptBenchmarks scenario)
        {
            scenario.Setup();
            return new Pair(() => scenario.Builtin(), () => scenario.Ours(), scenario);
        }

        // Our IBufferWriter, against Jint's own IBufferWriter overload.
        public static Pair Of(Utf8Benchmarks scenario)
        {
            scenario.Setup();
            return new Pair(() => scenario.Builtin(), () => scenario.BufferWriter(), scenario);
        }

        public static Pair Of(TableUtf8Benchmarks scenario)
        {
            scenario.Setup();
            return new Pair(() => scenario.Builtin(), () => scenario.BufferWriter(), scenario);
        }

        // Two methods of one benchmark: the row's baseline, and ours.
        public static Pair Of(SystemTextJsonBenchmarks scenario, Action<SystemTextJsonBenchmarks> baseline, Action<SystemTextJsonBenchmarks> ours)
        {
            scenario.Setup();
            return new Pair(() => baseline(scenario), () => ours(scenario), scenario);
        }

        public void Dispose() => owner.Dispose();
    }

    /// <summary>
    /// One side of a scenario in a process of its own, started from this runner (see <see cref="RunChild"/>).
    /// </summary>
    private sealed class SideProcess : IDisposable
    {
        private readonly Process _process;
        private readonly string _description;

        private SideProcess(Process process, string description)
        {
            _process = process;
            _description = description;
        }

        public static SideProcess Start(string scenario, string side)
        {
            Process process = RunnerProcess.Start([ChildArgument, scenario, side], redirectInput: true);
            var child = new SideProcess(process, $"the {side} process of '{scenario}'");
            string? first = process.StandardOutput.ReadLine();
            if (first != "ready")
            {
                child.Dispose();
                throw new InvalidOperationException($"{child._description} did not start (it said '{first}').");
            }

            return child;
        }

        // Seconds per call over a batch of the budget's length, run in the side's process.
        public double Time(TimeSpan budget)
        {
            _process.StandardInput.WriteLine(string.Create(CultureInfo.InvariantCulture, $"run {budget.TotalMilliseconds:R}"));
            _process.StandardInput.Flush();
            string answer = _process.StandardOutput.ReadLine() ?? throw new InvalidOperationException($"{_description} ended.");
            return double.Parse(answer, CultureInfo.InvariantCulture);
        }

        public void Dispose()
        {
            _process.StandardInput.Close();
            if (!_process.WaitForExit(TimeSpan.FromSeconds(30)))
            {
                _process.Kill(entireProcessTree: true);
            }

            _process.Dispose();
        }
    }
}
