using System.Buffers;
using System.Text;
using Jint;
using Jint.Native;

namespace JsonStringify.Tests;

/// <summary>
/// The wider corpus of testdata/corpus/ (testdata/README.md says what each document stresses): our output against
/// Jint 4.18.0's built-in serializer as a string and as UTF-8, compact and with space 2; and the documents that
/// testdata/rebuild.js rebuilds in script serialize as the parsed ones do.
/// </summary>
public class WideCorpusTests
{
    private static readonly string[] s_files =
    [
        "lockfile.json", "openapi.json", "countries.json", "sourcemap.json", "geojson-streets.json", "webhook-schema.json",
        "licenses.json", "events.json", "settings.json", "emoji-ru.json", "trace.json", "notebook.json",
        "wide-records.json", "intkeys.json", "numbers.json", "counters.json", "permissions.json", "joblist.json",
    ];

    public static TheoryData<string, int> Documents
    {
        get
        {
            var data = new TheoryData<string, int>();
            foreach (string file in s_files)
            {
                data.Add(file, 0);
                data.Add(file, 2);
            }

            return data;
        }
    }

    public static TheoryData<string, string> Builds
    {
        get
        {
            var data = new TheoryData<string, string>();
            foreach (string file in (string[])["joblist.json", "events.json", "wide-records.json", "openapi.json"])
            {
                foreach (string build in (string[])["assigned", "deleted", "Object.assign", "class"])
                {
                    data.Add(file, build);
                }
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(Documents))]
    public void MatchesJintAsStringAndUtf8(string file, int space)
    {
        using var engine = new Engine();
        JsValue document = Corpus.Parse(engine, Path.Combine("corpus", file));
        JsValue gap = space == 0 ? JsValue.Undefined : JsNumber.Create(space);

        string expected = new Jint.Native.Json.JsonSerializer(engine).Serialize(document, JsValue.Undefined, gap).ToString();
        var serializer = new JsonSerializer(engine);
        string actual = serializer.SerializeToString(document, null, gap)!;
        JsonText.AssertEqualExceptLargeIntegers(expected, actual);

        var utf8 = new ArrayBufferWriter<byte>();
        Assert.True(serializer.Serialize(document, JsValue.Undefined, gap, utf8));
        Assert.Equal(actual, Encoding.UTF8.GetString(utf8.WrittenSpan));
    }

    [Theory]
    [MemberData(nameof(Builds))]
    public void BuiltInScriptSerializesAsParsed(string file, string build)
    {
        using var engine = new Engine();
        JsValue parsed = Corpus.Parse(engine, Path.Combine("corpus", file));
        JsValue built = engine.Evaluate(Corpus.Read("rebuild.js")).Call(JsValue.Undefined, [parsed, new JsString(build)]);
        var serializer = new JsonSerializer(engine);

        string expected = serializer.SerializeToString(parsed)!;
        Assert.Equal(expected, serializer.SerializeToString(built));
        Assert.Equal(new Jint.Native.Json.JsonSerializer(engine).Serialize(built).ToString(), serializer.SerializeToString(built));
    }
}
