"""Writes `spark/`, a Parquet directory written by Spark itself (local mode), for batchspec's
Parquet reader tests: `pip install pyspark` (Java 17 must be installed), then run from this
directory `python3 make_spark_fixtures.py`. The files are committed, so `cargo test` needs
neither Python nor Java.

Spark writes what it always writes: a directory of `part-*.snappy.parquet` files (one per
partition, here 3), `_SUCCESS`, and `.crc` files; `array<double>` columns as Parquet's
three-level LIST and integers as `bigint`. Sample i holds 4i + p + 0.5 for p in 0..4 and the
label i % 3, as the pyarrow fixtures do.
"""

import shutil

from pyspark.sql import SparkSession
from pyspark.sql.types import ArrayType, DoubleType, LongType, StructField, StructType

spark = (
    SparkSession.builder.master("local[1]")
    .appName("batchspec-fixtures")
    .config("spark.ui.enabled", "false")
    .getOrCreate()
)
rows = [([4 * i + p + 0.5 for p in range(4)], i % 3) for i in range(10)]
schema = StructType(
    [
        StructField("features", ArrayType(DoubleType(), containsNull=False), nullable=False),
        StructField("targets", LongType(), nullable=False),
    ]
)
# Three partitions of consecutive rows (0-2, 3-5, 6-9): three part files, in row order.
df = spark.createDataFrame(spark.sparkContext.parallelize(rows, 3), schema)
shutil.rmtree("spark", ignore_errors=True)
df.write.parquet("spark")
spark.stop()
