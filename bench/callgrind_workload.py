# Workload for bench/callgrind.sh: touches much of the Python standard library
# so that the callgrind profile has many functions, call sites and contexts.
import collections, csv, datetime, decimal, difflib, email.message, fractions, io, itertools
import json, re, statistics, string, textwrap, xml.etree.ElementTree as ET, zlib, hashlib, base64

data = [{"id": i, "name": "item%d" % i, "price": decimal.Decimal(i) / 7} for i in range(2000)]
text = json.dumps(data, default=str)
json.loads(text)
re.findall(r"item(\d+)", text)
collections.Counter(text)
out = io.StringIO()
w = csv.writer(out)
for d in data:
    w.writerow([d["id"], d["name"], d["price"]])
list(csv.reader(io.StringIO(out.getvalue())))
root = ET.Element("root")
for d in data[:500]:
    ET.SubElement(root, "item", id=str(d["id"])).text = d["name"]
ET.fromstring(ET.tostring(root))
statistics.mean(float(d["price"]) for d in data)
sum(fractions.Fraction(i, i + 1) for i in range(1, 300))
list(difflib.unified_diff(text[:3000].split(","), text[100:3100].split(",")))
textwrap.fill(text[:20000], 60)
zlib.decompress(zlib.compress(text.encode()))
hashlib.sha256(text.encode()).hexdigest()
base64.b64decode(base64.b64encode(text.encode()))
m = email.message.EmailMessage()
m["Subject"] = "bench"
m.set_content(text[:5000])
m.as_string()
[datetime.date(2020, 1, 1) + datetime.timedelta(days=i) for i in range(1000)]
list(itertools.permutations(range(7)))
string.Template("$a $b").substitute(a=1, b=2)
